import path from 'node:path';

/**
 * The house's layers, held by the linter: which folders a folder's modules may import. Only
 * relative imports are checked; packages are free.
 *
 * Each layer: `folder` (repository-relative, ending in `/`), and either `allow` (the only folders
 * it may import) or `deny` (folders it may not), with `except` naming files that may cross a
 * `deny` line and why.
 *
 * @type {import('eslint').Rule.RuleModule}
 */
export const layerImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps each folder to the layers below it' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: { type: 'array' },
        },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      notAllowed: '{{from}} may import only {{allowed}}, not {{target}}.',
      denied: '{{from}} may not import {{target}}{{reason}}.',
    },
  },
  create(context) {
    const [{ root, layers }] = context.options;
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    const layer = layers
      .filter(({ folder }) => file.startsWith(folder))
      .sort((a, b) => b.folder.length - a.folder.length)[0];
    if (!layer) return {};

    function check(node, specifier) {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = path
        .relative(root, path.resolve(path.dirname(context.filename), specifier))
        .split(path.sep)
        .join('/');
      const inside = (folder) => target.startsWith(folder);
      if (layer.allow && !layer.allow.some(inside)) {
        context.report({
          node,
          messageId: 'notAllowed',
          data: { from: layer.folder, allowed: layer.allow.join(', '), target },
        });
      }
      const denied = layer.deny?.find(inside);
      if (denied && !(layer.except ?? []).includes(file)) {
        context.report({
          node,
          messageId: 'denied',
          data: { from: layer.folder, target, reason: layer.because ? `: ${layer.because}` : '' },
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
