import postcss from 'postcss';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pruneUnusedTokens } from './prune-unused-tokens.mjs';

const tokens = `
@layer tokens {
  :root {
    --teal-9: #0a0;
    --teal-1: #efe;
    --shadow-color: 0 0% 0%;
    --shadow-2: 0 1px 2px hsl(var(--shadow-color));
    --color-brand: var(--teal-9);
    --color-unused: var(--teal-1);
  }
  .only-unused { --gray-1: #eee; }
}
body { box-shadow: var(--shadow-2); }
`;

async function prune(css: string, used: string[]): Promise<string> {
  const result = await postcss([pruneUnusedTokens({ used: () => new Set(used) })]).process(css, {
    from: undefined,
  });
  return result.css;
}

describe('pruneUnusedTokens', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('keeps the tokens something names, and those their values name, and drops the rest', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const css = await prune(tokens, ['--color-brand']);
    expect(css).toContain('--color-brand: var(--teal-9)');
    expect(css).toContain('--teal-9: #0a0');
    expect(css).not.toContain('--teal-1');
    expect(css).not.toContain('--color-unused');
    expect(css).not.toContain('.only-unused');
  });

  it('keeps what a plain rule of the same sheet uses, with what that needs', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const css = await prune(tokens, []);
    expect(css).toContain('--shadow-2:');
    expect(css).toContain('--shadow-color:');
  });

  it('leaves every token alone outside a production build', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    expect(await prune(tokens, [])).toBe(tokens);
  });
});
