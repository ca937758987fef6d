import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'astro/zod';
import { collections } from '../src/content.config';
import { copyOfProject } from '../tests/e2e/support/project-copy';
import { projectRoot as root, syncContent } from './content-sync';

// Outside Astro, a collection is what its definition says: its loader and its schema.
vi.mock('astro:content', () => ({ defineCollection: <T>(definition: T): T => definition }));

let copy: string;
let folder: string;

function editWelcomePage(page: string, edit: (text: string) => string): void {
  const file = path.join(copy, 'src/content/welcome', `${page}.md`);
  writeFileSync(
    file,
    edit(readFileSync(path.join(root, 'src/content/welcome', `${page}.md`), 'utf8')),
  );
}

describe('the welcome pages as content editors change them', () => {
  beforeAll(() => {
    ({ folder, root: copy } = copyOfProject('welcome-content-'));
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('accepts the files as they are', () => {
    expect(syncContent(copy).status).toBe(0);
  }, 60_000);

  it('refuses a page without a title, naming the file, the field and its rule', () => {
    editWelcomePage('about-us', (text) => text.replace(/^title: .*\n/m, ''));
    const { status, output } = syncContent(copy);
    expect(status).not.toBe(0);
    expect(output).toContain('welcome → about-us data does not match collection schema.');
    expect(output).toContain('  title: every welcome page needs a title (at most 80 characters)');
    expect(output).toContain('src/content/welcome/about-us.md');
  }, 60_000);

  it('refuses a step that is not 1, 2 or 3, naming the file, the field and its rule', () => {
    editWelcomePage('about-us', (text) => text);
    editWelcomePage('contact-info', (text) => text.replace(/^step: 3$/m, 'step: third'));
    const { status, output } = syncContent(copy);
    expect(status).not.toBe(0);
    expect(output).toContain('welcome → contact-info data does not match collection schema.');
    expect(output).toContain(
      '  step: every welcome page needs a step, its place in the sequence: 1, 2 or 3',
    );
  }, 60_000);
});

/**
 * What an editor reads for a welcome page whose front matter is `page` changed by `change`, one
 * line a field, as Astro prints it (`field: sentence`). A field `change` sets to `undefined` is
 * left out, as a line deleted.
 */
function problemsWith(page: object, change: object): string[] {
  const { schema } = collections.welcome;
  if (!(schema instanceof z.ZodType)) throw new Error('The welcome schema is not a zod schema');
  const edited = Object.fromEntries(
    Object.entries({ ...page, ...change }).filter(([, value]) => value !== undefined),
  );
  const result = schema.safeParse(edited);
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('a welcome page an editor gets wrong', () => {
  const page = {
    title: 'Welcome to Member Concierge',
    step: 1,
    lead: 'A team of real people who take everyday errands off your hands.',
  };
  const title = 'title: every welcome page needs a title (at most 80 characters)';
  const step = 'step: every welcome page needs a step, its place in the sequence: 1, 2 or 3';
  const lead =
    'lead: every welcome page needs a lead, one sentence under the title (at most 200 characters)';

  it('has no problem as it stands, nor with a title and a lead as long as they may be', () => {
    expect(problemsWith(page, {})).toEqual([]);
    expect(problemsWith(page, { title: 'T'.repeat(80), lead: 'L'.repeat(200) })).toEqual([]);
  });

  it.each([
    ['no title', { title: undefined }, title],
    ['an empty title', { title: '' }, title],
    ['a title of 81 characters', { title: 'T'.repeat(81) }, title],
    ['a title that is a number', { title: 2026 }, title],
    ['no step', { step: undefined }, step],
    ['step 4', { step: 4 }, step],
    ['a step in words', { step: 'third' }, step],
    ['no lead', { lead: undefined }, lead],
    ['an empty lead', { lead: '' }, lead],
    ['a lead of 201 characters', { lead: 'L'.repeat(201) }, lead],
  ])('with %s is told which field, and its rule in a sentence', (_case, change, message) => {
    expect(problemsWith(page, change)).toEqual([message]);
  });
});
