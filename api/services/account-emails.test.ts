import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  passwordChangedEmail,
  passwordResetEmail,
  resetPasswordLink,
  unlockEmail,
  unlockLink,
} from './account-emails.ts';

const ORIGIN = 'https://portal.example.com';
const TOKEN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123_-A';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('links', () => {
  it('points at the pages of the public origin', () => {
    expect(resetPasswordLink(ORIGIN, TOKEN)).toBe(`${ORIGIN}/reset-password/${TOKEN}`);
    expect(unlockLink(ORIGIN, TOKEN)).toBe(`${ORIGIN}/unlock/${TOKEN}`);
  });

  it('encodes anything in a token that is not safe in a path', () => {
    expect(unlockLink(ORIGIN, '../x?y#z')).toBe(`${ORIGIN}/unlock/..%2Fx%3Fy%23z`);
  });
});

describe('account emails', () => {
  const link = resetPasswordLink(ORIGIN, TOKEN);

  it('carry the link in both the text and the HTML part', () => {
    for (const email of [
      passwordResetEmail({ name: 'Avery' }, link),
      unlockEmail({ name: 'Avery' }, unlockLink(ORIGIN, TOKEN)),
    ]) {
      expect(email.text).toContain(`${ORIGIN}/`);
      expect(email.text).toContain(TOKEN);
      expect(email.html).toContain(`href="${ORIGIN}/`);
      expect(email.html).toContain(TOKEN);
      expect(email.text).toMatch(/^Hello Avery,/);
    }
  });

  it('escape the member’s name in the HTML part', () => {
    const email = passwordResetEmail({ name: '<script>alert(1)</script>' }, link);

    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(email.text).toContain('Hello <script>alert(1)</script>,');
  });

  it('greet without a name when there is none', () => {
    expect(passwordChangedEmail({ name: ' ' }, ORIGIN).text).toMatch(/^Hello,/);
  });

  it('point the password-changed email at the forgot-password page, with no token', () => {
    const email = passwordChangedEmail({ name: 'Avery' }, ORIGIN);

    expect(email.subject).toBe('Your Member Concierge password was changed');
    expect(email.text).toContain(`${ORIGIN}/forgot-password`);
  });
});
