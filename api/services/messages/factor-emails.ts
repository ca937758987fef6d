import { RECOVERY_CODES_LOW } from '../../../contract/limits.ts';
import { compose, GREETING, PRODUCT_NAME, siteLink } from './email-composition.ts';
import type { EmailContent } from './outbox.ts';

/** The emails of two-step verification: a factor added, changed or removed, a recovery code used. */

/** The way out of a two-step change the member did not make. */
function resetIfNotYou(publicOrigin: string) {
  return {
    link: { href: siteLink(publicOrigin, 'forgot-password'), label: 'Reset my password' },
    after: [],
  };
}

/**
 * When a phone is first confirmed for the codes (POST /mfa/verify of an enrollment). Only the
 * phone's last two digits go in the email, as on every page.
 */
export function twoStepEnabledEmail(publicOrigin: string, phoneLastDigits: string): EmailContent {
  return compose(`Two-step verification is on for your ${PRODUCT_NAME} account`, {
    greeting: GREETING,
    before: [
      `From now on, signing in to your ${PRODUCT_NAME} account takes a code we text to the phone number ending ${phoneLastDigits}.`,
      'If you did not turn it on, reset your password at once, which signs out every device, and contact us through the site.',
    ],
    ...resetIfNotYou(publicOrigin),
  });
}

/** When an enrolled member confirms another phone for the codes. */
export function twoStepPhoneChangedEmail(
  publicOrigin: string,
  phoneLastDigits: string,
): EmailContent {
  return compose(`Your ${PRODUCT_NAME} sign-in codes go to a new phone`, {
    greeting: GREETING,
    before: [
      `The codes that sign you in to your ${PRODUCT_NAME} account now go to the phone number ending ${phoneLastDigits}; the phone used before no longer gets them.`,
      'If you did not change it, reset your password at once, which signs out every device, and contact us through the site.',
    ],
    ...resetIfNotYou(publicOrigin),
  });
}

/** When the member turns two-step verification off (DELETE /mfa). */
export function twoStepDisabledEmail(publicOrigin: string): EmailContent {
  return compose(`Two-step verification was turned off for your ${PRODUCT_NAME} account`, {
    greeting: GREETING,
    before: [
      `Signing in to your ${PRODUCT_NAME} account no longer takes a code: your password alone is enough.`,
      'If you did not turn it off, reset your password at once: that signs out every device.',
    ],
    ...resetIfNotYou(publicOrigin),
  });
}

/**
 * When an authenticator app is confirmed (POST /mfa/app/confirm): the first one, or one that
 * replaces the app before it.
 */
export function authenticatorAppAddedEmail(publicOrigin: string, replacing: boolean): EmailContent {
  return compose(`An authenticator app was added to your ${PRODUCT_NAME} account`, {
    greeting: GREETING,
    before: [
      replacing
        ? `Signing in to your ${PRODUCT_NAME} account can now take a code from a new authenticator app; the app used before no longer works.`
        : `Signing in to your ${PRODUCT_NAME} account can now take a code from your authenticator app.`,
      'If you did not add it, reset your password at once, which signs out every device, and contact us through the site.',
    ],
    ...resetIfNotYou(publicOrigin),
  });
}

/** When the member adds a passkey (POST /mfa/passkeys), named as the member named it. */
export function passkeyAddedEmail(publicOrigin: string, name: string): EmailContent {
  return compose(`A passkey was added to your ${PRODUCT_NAME} account`, {
    greeting: GREETING,
    before: [
      `The passkey "${name}" can now sign you in to your ${PRODUCT_NAME} account, and confirm that it is you when you sign in with your password.`,
      'If you did not add it, reset your password at once, which signs out every device, and contact us through the site.',
    ],
    ...resetIfNotYou(publicOrigin),
  });
}

/** When the member removes a passkey (DELETE /mfa/passkeys/:id). */
export function passkeyRemovedEmail(publicOrigin: string, name: string): EmailContent {
  return compose(`A passkey was removed from your ${PRODUCT_NAME} account`, {
    greeting: GREETING,
    before: [
      `The passkey "${name}" no longer signs you in to your ${PRODUCT_NAME} account.`,
      'If you did not remove it, reset your password at once: that signs out every device.',
    ],
    ...resetIfNotYou(publicOrigin),
  });
}

/** When the member removes their authenticator app (DELETE /mfa/app). */
export function authenticatorAppRemovedEmail(publicOrigin: string): EmailContent {
  return compose(`The authenticator app was removed from your ${PRODUCT_NAME} account`, {
    greeting: GREETING,
    before: [
      `Codes from your authenticator app no longer sign you in to your ${PRODUCT_NAME} account.`,
      'If you did not remove it, reset your password at once: that signs out every device.',
    ],
    ...resetIfNotYou(publicOrigin),
  });
}

/**
 * When the member removes the phone from two-step verification (DELETE /mfa/phone); only its last
 * two digits, as everywhere.
 */
export function twoStepPhoneRemovedEmail(
  publicOrigin: string,
  phoneLastDigits: string,
): EmailContent {
  return compose(
    `The phone was removed from two-step verification for your ${PRODUCT_NAME} account`,
    {
      greeting: GREETING,
      before: [
        `Codes texted to the phone number ending ${phoneLastDigits} no longer sign you in to your ${PRODUCT_NAME} account.`,
        'If you did not remove it, reset your password at once: that signs out every device.',
      ],
      ...resetIfNotYou(publicOrigin),
    },
  );
}

/** When the member makes a new set of recovery codes (POST /mfa/recovery-codes). */
export function recoveryCodesRenewedEmail(publicOrigin: string): EmailContent {
  return compose(`New recovery codes for your ${PRODUCT_NAME} account`, {
    greeting: GREETING,
    before: [
      `A new set of recovery codes was just made for your ${PRODUCT_NAME} account. The codes made before no longer work: keep only the new ones.`,
      'If you did not make them, reset your password at once, which signs out every device, and contact us through the site.',
    ],
    ...resetIfNotYou(publicOrigin),
  });
}

function unusedCodesLeft(codesLeft: number): string {
  if (codesLeft === 0) return 'You have no unused recovery codes left.';
  if (codesLeft === 1) return 'You have 1 unused recovery code left.';
  return `You have ${codesLeft} unused recovery codes left.`;
}

/**
 * When a recovery code takes the MFA step (POST /mfa/verify with `method: "recovery_code"`): the
 * member learns how many are left, and with few left, where to make new ones. A code used by
 * someone else is the sign of a stolen password and a stolen set, so the way out comes last.
 */
export function recoveryCodeUsedEmail(publicOrigin: string, codesLeft: number): EmailContent {
  const subject = `A recovery code was used to sign in to your ${PRODUCT_NAME} account`;
  const used = `A recovery code was just used to sign in to your ${PRODUCT_NAME} account. Each code works once. ${unusedCodesLeft(codesLeft)}`;
  const notYou =
    'If you did not use it, reset your password at once, which signs out every device, and contact us through the site.';
  if (codesLeft > RECOVERY_CODES_LOW) {
    return compose(subject, {
      greeting: GREETING,
      before: [used, notYou],
      ...resetIfNotYou(publicOrigin),
    });
  }
  return compose(subject, {
    greeting: GREETING,
    before: [
      used,
      'Make a new set before you run out, in Sign-in and security in the Account area:',
    ],
    link: { href: siteLink(publicOrigin, 'account', 'security'), label: 'Make new recovery codes' },
    after: [notYou],
    closingLink: {
      href: siteLink(publicOrigin, 'forgot-password'),
      label: 'Reset my password',
    },
  });
}
