import { describe, expect, it } from 'vitest';
import { recoveryCodeUsedEmail } from './factor-emails.ts';

const ORIGIN = 'https://portal.example.com';

describe('the email of a used recovery code', () => {
  it('tells how many codes are left, and with many left only what to do if it was not the member', () => {
    const email = recoveryCodeUsedEmail(ORIGIN, 9);

    expect(email.subject).toBe(
      'A recovery code was used to sign in to your Member Concierge account',
    );
    expect(email.text).toContain('You have 9 unused recovery codes left.');
    expect(email.text).not.toContain(`${ORIGIN}/account/security`);
    expect(email.text).toContain(`${ORIGIN}/forgot-password`);
  });

  it('asks for a new set in Sign-in and security once 3 or fewer are left', () => {
    for (const [left, sentence] of [
      [3, 'You have 3 unused recovery codes left.'],
      [1, 'You have 1 unused recovery code left.'],
      [0, 'You have no unused recovery codes left.'],
    ] as const) {
      const email = recoveryCodeUsedEmail(ORIGIN, left);

      expect(email.text).toContain(sentence);
      expect(email.text).toContain('Sign-in and security');
      expect(email.text).toContain(`${ORIGIN}/account/security`);
      expect(email.html).toContain(`href="${ORIGIN}/account/security"`);
      expect(email.text).toContain(`${ORIGIN}/forgot-password`);
    }
  });
});
