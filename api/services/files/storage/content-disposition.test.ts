import { describe, expect, it } from 'vitest';
import { attachmentContentDisposition } from './content-disposition.ts';

describe('attachmentContentDisposition', () => {
  it('names a plain file name as it is', () => {
    expect(attachmentContentDisposition('report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
  });

  it('gives the exact name in filename* and an ASCII stand-in in filename', () => {
    expect(attachmentContentDisposition('Résumé 2026.pdf')).toBe(
      `attachment; filename="R_sum_ 2026.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%202026.pdf`,
    );
  });

  it('never lets quotes, backslashes, semicolons or line breaks out of their parameter', () => {
    const header = attachmentContentDisposition('a"b\\c;d\r\ne\'(f)*.txt');

    expect(header).toBe(
      `attachment; filename="a_b_c_d__e'(f)*.txt"; filename*=UTF-8''a%22b%5Cc%3Bd%0D%0Ae%27%28f%29%2A.txt`,
    );
  });

  it('survives a name with a lone surrogate', () => {
    expect(attachmentContentDisposition('bad\uD800.txt')).toContain(
      "filename*=UTF-8''bad%EF%BF%BD.txt",
    );
  });

  it('falls back to "download" when nothing printable is left', () => {
    expect(attachmentContentDisposition('日本')).toMatch(/^attachment; filename="download"/);
  });
});
