import { describe, expect, it } from 'vitest';
import { builtFilesOnly } from './built-files-policy';

const astroPolicy =
  "default-src 'self';img-src 'self' data: blob:;connect-src 'self';form-action 'self';" +
  "report-to csp-endpoint; script-src 'self' 'sha256-a=' 'sha256-b='; style-src 'self' 'sha256-c=';";

describe('builtFilesOnly', () => {
  const narrowed = builtFilesOnly(astroPolicy, 'https://portal.example.com');

  it('takes scripts and styles from the build’s folder and the hashes alone', () => {
    expect(narrowed).toContain(
      "script-src https://portal.example.com/_astro/ 'sha256-a=' 'sha256-b=';",
    );
    expect(narrowed).toContain("style-src https://portal.example.com/_astro/ 'sha256-c=';");
  });

  it('leaves every other directive as Astro wrote it', () => {
    expect(narrowed).toContain("default-src 'self';img-src 'self' data: blob:;connect-src 'self';");
    expect(narrowed).toContain("form-action 'self';");
  });

  it('leaves a policy with no such source as it was', () => {
    const strict = "default-src 'none'; script-src 'sha256-a='";
    expect(builtFilesOnly(strict, 'https://portal.example.com')).toBe(strict);
  });
});
