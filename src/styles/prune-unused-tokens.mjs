import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The sheet that names the open-props tokens the product's own names stand for: what it refers
 * to counts only through the names that are used. (Other sheets, tokens-kit.css among them, are
 * separate stylesheets: whatever they name is kept.)
 */
const tokenSheet = 'styles/tokens.css';

/** Any custom property named in a file: in `var()`, set from a script, read by a component. */
const customPropertyName = /--[a-zA-Z][\w-]*/g;

/**
 * The custom properties named anywhere under `sourceDir` outside the token sheet: the seed of
 * what a page uses.
 *
 * @param {string} sourceDir
 * @returns {Set<string>}
 */
export function customPropertiesNamedIn(sourceDir) {
  /** @type {Set<string>} */
  const named = new Set();
  /** @param {string} dir */
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        visit(file);
      } else if (/\.(css|astro|tsx?|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        if (path.relative(sourceDir, file).split(path.sep).join('/') === tokenSheet) continue;
        for (const name of readFileSync(file, 'utf8').match(customPropertyName) ?? []) {
          named.add(name);
        }
      }
    }
  };
  visit(sourceDir);
  return named;
}

/**
 * A PostCSS plugin that drops the custom properties no page uses. open-props defines several
 * hundred; the product uses about a hundred, and every page carries its styles inline, so the rest
 * would cost every page 2 KB compressed. A property is kept when something outside the token sheet
 * names it (see {@link customPropertiesNamedIn}), when a rule that is not a custom property uses
 * it, or when a kept property's value does.
 *
 * @param {{ used: () => Set<string> }} options `used` is asked once per stylesheet
 * @returns {import('postcss').Plugin}
 */
export function pruneUnusedTokens({ used }) {
  return {
    postcssPlugin: 'prune-unused-tokens',
    Once(root) {
      // Under `astro dev` files change under it; the saving matters only to a production build.
      if (process.env.NODE_ENV !== 'production') return;
      const kept = new Set(used());
      /** @type {Map<string, string[]>} */
      const valuesOf = new Map();
      root.walkDecls((declaration) => {
        const names = declaration.value.match(customPropertyName) ?? [];
        if (declaration.prop.startsWith('--')) {
          valuesOf.set(declaration.prop, [...(valuesOf.get(declaration.prop) ?? []), ...names]);
        } else {
          for (const name of names) kept.add(name);
        }
      });
      const pending = [...kept];
      while (pending.length > 0) {
        for (const name of valuesOf.get(pending.pop() ?? '') ?? []) {
          if (!kept.has(name)) {
            kept.add(name);
            pending.push(name);
          }
        }
      }
      root.walkDecls(/^--/, (declaration) => {
        if (!kept.has(declaration.prop)) declaration.remove();
      });
      root.walkRules((rule) => {
        if (rule.nodes.length === 0) rule.remove();
      });
      root.walkAtRules((atRule) => {
        if (atRule.nodes?.length === 0) atRule.remove();
      });
    },
  };
}
