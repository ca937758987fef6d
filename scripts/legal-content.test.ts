import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'astro/zod';
import { collections } from '../src/content.config';
import { copyOfProject } from '../tests/e2e/support/project-copy';
import { projectRoot as root, syncContent } from './content-sync';

// Outside Astro, a collection is what its definition says: its loader and its schema.
vi.mock('astro:content', () => ({ defineCollection: <T>(definition: T): T => definition }));

const termsFile = 'src/content/legal/terms.md';
let copy: string;
let folder: string;

function editTerms(edit: (text: string) => string): void {
  writeFileSync(path.join(copy, termsFile), edit(readFileSync(path.join(root, termsFile), 'utf8')));
}

describe('the terms of service as content editors change them', () => {
  beforeAll(() => {
    ({ folder, root: copy } = copyOfProject('legal-content-'));
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('accepts the file as it is', () => {
    expect(syncContent(copy).status).toBe(0);
  }, 60_000);

  it('refuses terms whose date is in words, naming the file, the field and its rule', () => {
    editTerms((text) => text.replace(/^updated: .*$/m, 'updated: 20 November 2026'));
    const { status, output } = syncContent(copy);
    expect(status).not.toBe(0);
    expect(output).toContain('legal → terms data does not match collection schema.');
    expect(output).toContain(
      '  updated: every legal page needs the day it last changed, as year-month-day: updated: 2026-11-20',
    );
    expect(output).toContain(termsFile);
  }, 60_000);
});

/**
 * What an editor reads for a legal page whose front matter is `page` changed by `change`, one
 * line a field, as Astro prints it (`field: sentence`). A field `change` sets to `undefined` is
 * left out, as a line deleted.
 */
function problemsWith(page: object, change: object): string[] {
  const { schema } = collections.legal;
  if (!(schema instanceof z.ZodType)) throw new Error('The legal schema is not a zod schema');
  const edited = Object.fromEntries(
    Object.entries({ ...page, ...change }).filter(([, value]) => value !== undefined),
  );
  const result = schema.safeParse(edited);
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

/** The day a legal page last changed, as the schema gives it to the page. */
function updatedOf(page: object): unknown {
  const { schema } = collections.legal;
  if (!(schema instanceof z.ZodType)) throw new Error('The legal schema is not a zod schema');
  return (schema.parse(page) as { updated: unknown }).updated;
}

describe('a legal page an editor gets wrong', () => {
  // YAML reads `updated: 2026-11-20`, written bare, as a date at midnight UTC.
  const page = {
    title: 'Terms of service',
    updated: new Date('2026-11-20T00:00:00Z'),
    lead: 'The rules for using Member Concierge, in plain words.',
  };
  const title = 'title: every legal page needs a title (at most 80 characters)';
  const updated =
    'updated: every legal page needs the day it last changed, as year-month-day: updated: 2026-11-20';
  const lead =
    'lead: a lead, when there is one, is one sentence under the title (at most 200 characters)';

  it('has no problem as it stands, without a lead, nor with a title and a lead as long as they may be', () => {
    expect(problemsWith(page, {})).toEqual([]);
    expect(problemsWith(page, { lead: undefined })).toEqual([]);
    expect(problemsWith(page, { title: 'T'.repeat(80), lead: 'L'.repeat(200) })).toEqual([]);
  });

  it('takes a day written in quotes as the same day', () => {
    expect(problemsWith(page, { updated: '2026-11-20' })).toEqual([]);
    expect(updatedOf({ ...page, updated: '2026-11-20' })).toEqual(page.updated);
  });

  it.each([
    ['no title', { title: undefined }, title],
    ['an empty title', { title: '' }, title],
    ['a title of 81 characters', { title: 'T'.repeat(81) }, title],
    ['no date', { updated: undefined }, updated],
    ['an empty date', { updated: '' }, updated],
    ['a date in words', { updated: '20 November 2026' }, updated],
    ['a date the American way', { updated: '11/20/2026' }, updated],
    ['a quoted day that does not exist', { updated: '2026-02-30' }, updated],
    ['a date that is a number', { updated: 2026 }, updated],
    ['an empty lead', { lead: '' }, lead],
    ['a lead of 201 characters', { lead: 'L'.repeat(201) }, lead],
  ])('with %s is told which field, and its rule in a sentence', (_case, change, message) => {
    expect(problemsWith(page, change)).toEqual([message]);
  });
});
