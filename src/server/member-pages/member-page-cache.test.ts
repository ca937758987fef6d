import { describe, expect, it } from 'vitest';
import { MemberPageCache, type KeptMemberPage } from './member-page-cache';

function page(version: string, bodyBytes = 1000): KeptMemberPage<string> {
  return {
    version,
    member: 'Avery',
    status: 200,
    headers: [['content-type', 'text/html']],
    body: new Uint8Array(bodyBytes),
  };
}

function cache(
  options: {
    maxBytes?: number;
    maxPagesPerOwner?: number;
    maxAgeMs?: number;
    clock?: { now: number };
  } = {},
) {
  const clock = options.clock ?? { now: 0 };
  return new MemberPageCache<string>({
    maxBytes: options.maxBytes ?? 1_000_000,
    maxPagesPerOwner: options.maxPagesPerOwner ?? 100,
    maxAgeMs: options.maxAgeMs ?? 60_000,
    now: () => clock.now,
  });
}

describe('MemberPageCache', () => {
  it('gives back the page kept under a key, and nothing under another', () => {
    const pages = cache();
    pages.keep('a', page('7'), 'avery');

    expect(pages.get('a')?.version).toBe('7');
    expect(pages.get('b')).toBeUndefined();
  });

  it('keeps one page a key: the newer replaces the older', () => {
    const pages = cache();
    pages.keep('a', page('7'), 'avery');
    pages.keep('a', page('8', 500), 'avery');

    expect(pages.get('a')?.version).toBe('8');
    expect(pages.bytes).toBe(500 + 2048);
  });

  it('lets the page used longest ago go to make room, never more than its bytes allow', () => {
    const entryBytes = 1000 + 2048;
    const pages = cache({ maxBytes: entryBytes * 2 });
    pages.keep('a', page('1'), 'avery');
    pages.keep('b', page('2'), 'avery');
    pages.get('a');
    pages.keep('c', page('3'), 'avery');

    expect(pages.get('b')).toBeUndefined();
    expect(pages.get('a')?.version).toBe('1');
    expect(pages.get('c')?.version).toBe('3');
    expect(pages.bytes).toBeLessThanOrEqual(entryBytes * 2);
  });

  it('keeps no page larger than all it may hold', () => {
    const pages = cache({ maxBytes: 4000 });
    pages.keep('a', page('1', 5000), 'avery');

    expect(pages.get('a')).toBeUndefined();
    expect(pages.bytes).toBe(0);
  });

  it('keeps nothing when it may hold nothing', () => {
    const pages = cache({ maxBytes: 0 });
    pages.keep('a', page('1'), 'avery');

    expect(pages.enabled).toBe(false);
    expect(pages.get('a')).toBeUndefined();
  });

  it('gives back no page older than its maximum age, and frees its bytes', () => {
    const clock = { now: 0 };
    const pages = cache({ maxAgeMs: 60_000, clock });
    pages.keep('a', page('1'), 'avery');
    clock.now = 59_999;
    expect(pages.get('a')?.version).toBe('1');

    clock.now = 60_000;
    expect(pages.get('a')).toBeUndefined();
    expect(pages.bytes).toBe(0);
  });

  it('lets an owner past their number of pages push out their own used longest ago, never another’s', () => {
    const pages = cache({ maxPagesPerOwner: 2 });
    pages.keep('theirs', page('1'), 'blake');
    pages.keep('a', page('1'), 'avery');
    pages.keep('b', page('2'), 'avery');
    pages.get('a');
    pages.keep('c', page('3'), 'avery');

    expect(pages.get('b')).toBeUndefined();
    expect(pages.get('a')?.version).toBe('1');
    expect(pages.get('c')?.version).toBe('3');
    expect(pages.get('theirs')?.version).toBe('1');
    expect(pages.bytes).toBe(3 * (1000 + 2048));
  });

  it('counts a page kept again under its key once for its owner', () => {
    const pages = cache({ maxPagesPerOwner: 2 });
    pages.keep('a', page('1'), 'avery');
    pages.keep('a', page('2'), 'avery');
    pages.keep('b', page('3'), 'avery');

    expect(pages.get('a')?.version).toBe('2');
    expect(pages.get('b')?.version).toBe('3');
  });

  it('frees an owner’s count when a page of theirs goes to make room', () => {
    const entryBytes = 1000 + 2048;
    const pages = cache({ maxBytes: entryBytes * 2, maxPagesPerOwner: 2 });
    pages.keep('a', page('1'), 'avery');
    pages.keep('b', page('2'), 'blake');
    pages.keep('c', page('3'), 'blake');
    pages.keep('d', page('4'), 'avery');
    pages.keep('e', page('5'), 'avery');

    expect(pages.get('a')).toBeUndefined();
    expect(pages.get('d')?.version).toBe('4');
    expect(pages.get('e')?.version).toBe('5');
  });

  it('frees an owner’s count when a page of theirs is too old to give back', () => {
    const clock = { now: 0 };
    const pages = cache({ maxPagesPerOwner: 2, maxAgeMs: 60_000, clock });
    pages.keep('a', page('1'), 'avery');
    clock.now = 30_000;
    pages.keep('b', page('2'), 'avery');
    clock.now = 60_000;
    expect(pages.get('a')).toBeUndefined();
    pages.keep('c', page('3'), 'avery');

    expect(pages.get('b')?.version).toBe('2');
    expect(pages.get('c')?.version).toBe('3');
  });

  it('makes keys that name no part and tell different parts apart', () => {
    const key = MemberPageCache.key(['session-token', '/dashboard']);

    expect(key).not.toContain('session-token');
    expect(key).toBe(MemberPageCache.key(['session-token', '/dashboard']));
    expect(MemberPageCache.key(['ab', 'c'])).not.toBe(MemberPageCache.key(['a', 'bc']));
    expect(MemberPageCache.key(['a', ''])).not.toBe(MemberPageCache.key(['a']));
  });
});
