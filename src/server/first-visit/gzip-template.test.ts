import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GzipTemplate } from './gzip-template';

const page = (token: string) =>
  `<!doctype html><html><head><style>${'.field{margin:0}'.repeat(200)}</style></head>` +
  `<body><form><input type="hidden" name="_xsrf" value="${token}"></form>` +
  `<astro-island props="{&quot;xsrfToken&quot;:[0,&quot;${token}&quot;]}"></astro-island></body></html>`;

describe('GzipTemplate', () => {
  it('gzips the text with the value in every place, as any gzip reader reads it', () => {
    const template = new GzipTemplate(page('TOKEN').split('TOKEN'));
    const token = 'b3Zlcl90aGVyZQ.c2lnbmF0dXJlX29mX3RoZV90b2tlbg';
    expect(gunzipSync(template.render(token)).toString('utf8')).toBe(page(token));
  });

  it('gives every answer its own value from the same compressed parts', () => {
    const template = new GzipTemplate(['<p>', '</p><p>', '</p>']);
    expect(gunzipSync(template.render('one')).toString()).toBe('<p>one</p><p>one</p>');
    expect(gunzipSync(template.render('two')).toString()).toBe('<p>two</p><p>two</p>');
  });

  it('compresses the fixed parts well, so the answer is about as small as gzip makes it', () => {
    const template = new GzipTemplate(page('TOKEN').split('TOKEN'));
    const whole = page('x'.repeat(40));
    expect(template.render('x'.repeat(40)).length).toBeLessThan(whole.length / 10);
  });

  it('holds for any text and any value, empty parts and multi-byte characters included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary' }), { minLength: 2, maxLength: 5 }),
        fc.string({ unit: 'binary', maxLength: 200 }),
        (parts, value) => {
          const rendered = new GzipTemplate(parts).render(value);
          expect(gunzipSync(rendered).toString('utf8')).toBe(parts.join(value));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a template with no place for the value', () => {
    expect(() => new GzipTemplate(['only one part'])).toThrow(/at least one place/);
  });
});
