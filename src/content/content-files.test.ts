import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentFileProblems } from './content-files';

const projectRoot = path.resolve(import.meta.dirname, '../..');

/** Every file the editor writes: the offers, and each Markdown file of a collection's folder. */
const contentFiles = [
  'src/content/offers.yaml',
  ...['welcome', 'legal'].flatMap((folder) =>
    readdirSync(path.join(projectRoot, 'src/content', folder))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `src/content/${folder}/${name}`),
  ),
];

/**
 * A welcome page as the editor saves it (Keystatic's YAML, `dump` of js-yaml): no blank line after
 * the front matter, and a lead longer than a line folded with `>-`.
 */
const savedByTheEditor = [
  '---',
  'title: Welcome to Member Concierge',
  'step: 1',
  'lead: >-',
  '  Real people who take the everyday errands off your hands, from the first call',
  '  to the last detail.',
  '---',
  'Tell us what you need, in your own words.',
  '',
].join('\n');

describe('the content files', () => {
  it.each(contentFiles)('%s reads and passes its collection’s rules', (file) => {
    expect(contentFileProblems(file, readFileSync(path.join(projectRoot, file), 'utf8'))).toEqual(
      [],
    );
  });

  it('take a page in the form the editor saves it', () => {
    expect(contentFileProblems('src/content/welcome/about-us.md', savedByTheEditor)).toEqual([]);
  });

  it('refuse a page whose front matter is not YAML, or breaks a rule, in the rule’s words', () => {
    expect(
      contentFileProblems('src/content/welcome/about-us.md', '---\ntitle: [unclosed\n---\n'),
    ).toEqual([expect.stringMatching(/^not YAML: /)]);
    expect(
      contentFileProblems('src/content/welcome/about-us.md', '---\nstep: 4\nlead: Hi.\n---\n'),
    ).toEqual([
      'title: every welcome page needs a title (at most 80 characters)',
      expect.stringMatching(/^step: /),
    ]);
  });

  it('refuse an offer for a partner the product does not know', () => {
    const offers = readFileSync(path.join(projectRoot, 'src/content/offers.yaml'), 'utf8');
    expect(
      contentFileProblems(
        'src/content/offers.yaml',
        offers.replace(/^term-life-insurance:/m, 'nobody:'),
      ),
    ).toEqual([expect.stringMatching(/^id: every offer needs the id of a partner/)]);
  });
});
