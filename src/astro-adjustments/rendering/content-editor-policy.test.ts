import { describe, expect, it } from 'vitest';
import { contentEditorPolicy } from './content-editor-policy';

const astroPolicy = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "script-src 'self' 'sha256-script='",
  "style-src 'self' 'sha256-layers=' 'sha256-island='",
].join('; ');

const directives = (policy: string) =>
  new Map(
    policy.split(/;\s*/).map((directive) => {
      const [name = '', ...sources] = directive.split(' ');
      return [name, sources];
    }),
  );

describe('the content editor’s policy', () => {
  const policy = directives(contentEditorPolicy(astroPolicy));

  it('takes inline styles, with no digest beside them that would make browsers ignore that', () => {
    expect(policy.get('style-src')).toEqual([
      "'self'",
      "'unsafe-inline'",
      'https://fonts.googleapis.com',
    ]);
  });

  it('loads the typeface its interface asks for', () => {
    expect(policy.get('font-src')).toEqual(["'self'", 'https://fonts.gstatic.com']);
  });

  it('keeps the scripts as Astro hashed them: no inline script runs unless it was rendered', () => {
    expect(policy.get('script-src')).toEqual(["'self'", "'sha256-script='"]);
  });

  it('reaches GitHub’s API and raw files, and shows the editors’ pictures', () => {
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      'https://api.github.com',
      'https://raw.githubusercontent.com',
    ]);
    expect(policy.get('img-src')).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https://avatars.githubusercontent.com',
    ]);
  });

  it('keeps every other directive as it was', () => {
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('adds a directive the policy lacked rather than leaving the default to refuse it', () => {
    expect(directives(contentEditorPolicy("default-src 'self'")).get('style-src')).toEqual([
      "'self'",
      "'unsafe-inline'",
      'https://fonts.googleapis.com',
    ]);
  });
});
