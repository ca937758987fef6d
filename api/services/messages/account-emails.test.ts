import { describe, expect, it } from 'vitest';
import {
  codesPausedEmail,
  passwordChangedEmail,
  passwordChangedWhileSignedInEmail,
  passwordResetEmail,
  resetPasswordLink,
  unlockEmail,
  unlockLink,
} from './account-emails.ts';

const ORIGIN = 'https://portal.example.com';
const TOKEN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123_-A';

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
      passwordResetEmail(link),
      unlockEmail(unlockLink(ORIGIN, TOKEN)),
      codesPausedEmail(unlockLink(ORIGIN, TOKEN), ORIGIN),
    ]) {
      expect(email.text).toContain(`${ORIGIN}/`);
      expect(email.text).toContain(TOKEN);
      expect(email.html).toContain(`href="${ORIGIN}/`);
      expect(email.html).toContain(TOKEN);
    }
  });

  it('greet nobody by name: the greeting is the same for every member', () => {
    for (const email of [
      passwordResetEmail(link),
      passwordChangedEmail(ORIGIN),
      passwordChangedWhileSignedInEmail(ORIGIN),
      unlockEmail(unlockLink(ORIGIN, TOKEN)),
      codesPausedEmail(unlockLink(ORIGIN, TOKEN), ORIGIN),
    ]) {
      expect(email.text).toMatch(/^Hello,\n\n/);
      expect(email.html).toContain(
        '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a">\n<p>Hello,</p>',
      );
    }
  });

  it('point the password-changed email at the forgot-password page, with no token', () => {
    const email = passwordChangedEmail(ORIGIN);

    expect(email.subject).toBe('Your Member Concierge password was changed');
    expect(email.text).toContain(`${ORIGIN}/forgot-password`);
  });

  it('say, after a change made while signed in, that only the other devices were signed out and what a reset does', () => {
    const email = passwordChangedWhileSignedInEmail(ORIGIN);

    expect(email.subject).toBe('Your Member Concierge password was changed');
    expect(email.text).toContain('Every other device that was signed in has been signed out.');
    expect(email.text).toContain('reset your password at once: that signs out every device');
    expect(email.text).toContain(`${ORIGIN}/forgot-password`);
    expect(email.html).toContain(`href="${ORIGIN}/forgot-password"`);
  });
});

describe('the codes-paused email', () => {
  const email = codesPausedEmail(unlockLink(ORIGIN, TOKEN), ORIGIN);

  it('says what happened and offers the unlock link, then a new password', () => {
    expect(email.subject).toBe('Sign-in codes for your Member Concierge account are paused');
    expect(email.text).toContain('Too many wrong codes were entered');
    expect(email.text).toContain('someone knows your password');
    expect(email.text.indexOf(`${ORIGIN}/unlock/${TOKEN}`)).toBeLessThan(
      email.text.indexOf(`${ORIGIN}/forgot-password`),
    );
    expect(email.html).toContain(`<a href="${ORIGIN}/unlock/${TOKEN}">Unlock my account</a>`);
    expect(email.html).toContain(`<a href="${ORIGIN}/forgot-password">Choose a new password</a>`);
  });
});
