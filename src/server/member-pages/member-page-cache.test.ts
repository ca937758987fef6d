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

function cache(options: { maxBytes?: number; maxAgeMs?: number; clock?: { now: number } } = {}) {
  const clock = options.clock ?? { now: 0 };
  return new MemberPageCache<string>({
    maxBytes: options.maxBytes ?? 1_000_000,
    maxAgeMs: options.maxAgeMs ?? 60_000,
    now: () => clock.now,
  });
}

describe('MemberPageCache', () => {
  it('gives back the page kept under a key, and nothing under another', () => {
    const pages = cache();
    pages.keep('a', page('7'));

    expect(pages.get('a')?.version).toBe('7');
    expect(pages.get('b')).toBeUndefined();
  });

  it('keeps one page a key: the newer replaces the older', () => {
    const pages = cache();
    pages.keep('a', page('7'));
    pages.keep('a', page('8', 500));

    expect(pages.get('a')?.version).toBe('8');
    expect(pages.bytes).toBe(500 + 2048);
  });

  it('lets the page used longest ago go to make room, never more than its bytes allow', () => {
    const entryBytes = 1000 + 2048;
    const pages = cache({ maxBytes: entryBytes * 2 });
    pages.keep('a', page('1'));
    pages.keep('b', page('2'));
    pages.get('a');
    pages.keep('c', page('3'));

    expect(pages.get('b')).toBeUndefined();
    expect(pages.get('a')?.version).toBe('1');
    expect(pages.get('c')?.version).toBe('3');
    expect(pages.bytes).toBeLessThanOrEqual(entryBytes * 2);
  });

  it('keeps no page larger than all it may hold', () => {
    const pages = cache({ maxBytes: 4000 });
    pages.keep('a', page('1', 5000));

    expect(pages.get('a')).toBeUndefined();
    expect(pages.bytes).toBe(0);
  });

  it('keeps nothing when it may hold nothing', () => {
    const pages = cache({ maxBytes: 0 });
    pages.keep('a', page('1'));

    expect(pages.enabled).toBe(false);
    expect(pages.get('a')).toBeUndefined();
  });

  it('gives back no page older than its maximum age, and frees its bytes', () => {
    const clock = { now: 0 };
    const pages = cache({ maxAgeMs: 60_000, clock });
    pages.keep('a', page('1'));
    clock.now = 59_999;
    expect(pages.get('a')?.version).toBe('1');

    clock.now = 60_000;
    expect(pages.get('a')).toBeUndefined();
    expect(pages.bytes).toBe(0);
  });

  it('makes keys that name no part and tell different parts apart', () => {
    const key = MemberPageCache.key(['session-token', '/dashboard']);

    expect(key).not.toContain('session-token');
    expect(key).toBe(MemberPageCache.key(['session-token', '/dashboard']));
    expect(MemberPageCache.key(['ab', 'c'])).not.toBe(MemberPageCache.key(['a', 'bc']));
    expect(MemberPageCache.key(['a', ''])).not.toBe(MemberPageCache.key(['a']));
  });
});
