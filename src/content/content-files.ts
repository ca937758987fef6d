import { z } from 'astro/zod';
import { load } from 'js-yaml';
import { legalFields, offerFields, welcomeFields } from './fields';
import { entrySchema } from './schema-fields';

/**
 * The check of the content files that stands in for Prettier's, which leaves `src/content/` to the
 * editor's own way of writing (.prettierignore): each file reads as YAML (the Markdown files' front
 * matter, the offers file whole) and its fields pass the rules of its collection
 * (src/content.config.ts), the words `astro build` would refuse it with.
 */

const welcomePage = entrySchema(welcomeFields);
const legalPage = entrySchema(legalFields);
const offer = entrySchema(offerFields);

/** A Markdown file's front matter, between its first two `---` lines, as Astro reads it. */
const frontMatter = /^---\r?\n([\s\S]*?)^---\r?$/mu;

/**
 * What is wrong with a content file, one line each (`field: rule`), or nothing. `file` is its path
 * from the project's root, e.g. `src/content/welcome/about-us.md`; `text` what it holds.
 */
export function contentFileProblems(file: string, text: string): string[] {
  let entries: Array<[schema: z.ZodType, data: unknown]>;
  try {
    if (file === 'src/content/offers.yaml') {
      const document = load(text);
      if (typeof document !== 'object' || document === null || Array.isArray(document)) {
        return ['each offer is under its partner’s id'];
      }
      entries = Object.entries(document).map(([id, fields]: [string, unknown]) => [
        offer,
        { ...(typeof fields === 'object' && fields !== null ? fields : {}), id },
      ]);
    } else {
      const schema = file.startsWith('src/content/welcome/')
        ? welcomePage
        : file.startsWith('src/content/legal/')
          ? legalPage
          : undefined;
      if (schema === undefined) return [`${file} belongs to no collection`];
      const yaml = frontMatter.exec(text)?.[1];
      if (yaml === undefined) return ['the file starts with no front matter between --- lines'];
      entries = [[schema, load(yaml)]];
    }
  } catch (error) {
    return [`not YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`];
  }
  return entries.flatMap(([schema, data]) =>
    (schema.safeParse(data).error?.issues ?? []).map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    ),
  );
}
