import { compose, GREETING, PRODUCT_NAME, siteLink } from './email-composition.ts';
import type { EmailContent } from './outbox.ts';

/** The emails of the account journeys: password, unlock, email address, deletion. */

export function resetPasswordLink(publicOrigin: string, token: string): string {
  return siteLink(publicOrigin, 'reset-password', token);
}

export function unlockLink(publicOrigin: string, token: string): string {
  return siteLink(publicOrigin, 'unlock', token);
}

export function passwordResetEmail(link: string): EmailContent {
  return compose(`Reset your ${PRODUCT_NAME} password`, {
    greeting: GREETING,
    before: [
      `Someone asked to reset the password of your ${PRODUCT_NAME} account. To choose a new password, open this link within 2 hours:`,
    ],
    link: { href: link, label: 'Choose a new password' },
    after: [
      'The link works once. If you did not ask for it, ignore this email: your password stays as it is.',
    ],
  });
}

export function passwordChangedEmail(publicOrigin: string): EmailContent {
  return compose(`Your ${PRODUCT_NAME} password was changed`, {
    greeting: GREETING,
    before: [
      `The password of your ${PRODUCT_NAME} account was just changed, and every device that was signed in has been signed out.`,
      'If you did not change it, reset your password at once:',
    ],
    link: { href: siteLink(publicOrigin, 'forgot-password'), label: 'Reset my password' },
    after: [],
  });
}

/**
 * After a change made while signed in (PATCH /users): unlike a reset, the device that changed it
 * stays signed in, so the email says what ends everyone's access if that device was not the
 * member's.
 */
export function passwordChangedWhileSignedInEmail(publicOrigin: string): EmailContent {
  return compose(`Your ${PRODUCT_NAME} password was changed`, {
    greeting: GREETING,
    before: [
      `The password of your ${PRODUCT_NAME} account was just changed by someone signed in to it. Every other device that was signed in has been signed out.`,
      'If you did not change it, reset your password at once: that signs out every device, the one that changed it too.',
    ],
    link: { href: siteLink(publicOrigin, 'forgot-password'), label: 'Reset my password' },
    after: [],
  });
}

/** After the account was deleted (DELETE /users): the last email the product sends the member. */
export function accountDeletedEmail(): EmailContent {
  return compose(`Your ${PRODUCT_NAME} account was deleted`, {
    greeting: GREETING,
    before: [
      `Your ${PRODUCT_NAME} account was deleted at your request, with your requests, notes and files. Every device that was signed in has been signed out.`,
      'If you did not delete it, someone who knew your password did: we can no longer restore it, but you can sign up again with this address.',
    ],
    after: ['Thank you for being a member.'],
  });
}

export function unlockEmail(link: string): EmailContent {
  return compose(`Your ${PRODUCT_NAME} account was locked`, {
    greeting: GREETING,
    before: [
      `Your ${PRODUCT_NAME} account was locked after too many attempts to sign in with a wrong password. It unlocks by itself after an hour, or at once with this link (valid for 24 hours):`,
    ],
    link: { href: link, label: 'Unlock my account' },
    after: [
      'If these attempts were not yours, someone may be guessing your password: once you are back in, consider choosing a new one.',
    ],
  });
}

/**
 * Sent once, when the account's wrong codes reach their cap (services/one-time-codes.ts), and again
 * with a new link when the member asks for an unlock link while codes are paused.
 */
export function codesPausedEmail(unlockHref: string, publicOrigin: string): EmailContent {
  return compose(`Sign-in codes for your ${PRODUCT_NAME} account are paused`, {
    greeting: GREETING,
    before: [
      `Too many wrong codes were entered to sign in to your ${PRODUCT_NAME} account, so sign-in with codes is paused: we send no more codes and accept none, not even a right one, until you choose a new password or unlock your account.`,
      'If you entered these codes, unlock your account with this link (valid for 24 hours):',
    ],
    link: { href: unlockHref, label: 'Unlock my account' },
    after: [
      'If you did not enter them, someone knows your password. Choose a new one at once; that also lets you sign in with codes again:',
    ],
    closingLink: {
      href: siteLink(publicOrigin, 'forgot-password'),
      label: 'Choose a new password',
    },
  });
}

export function confirmEmailLink(publicOrigin: string, token: string): string {
  return siteLink(publicOrigin, 'confirm-email', token);
}

/** At sign-up, and again on the member's request: the link that proves the address. */
export function verifyEmailEmail(link: string): EmailContent {
  return compose(`Confirm your ${PRODUCT_NAME} email address`, {
    greeting: GREETING,
    before: [
      `Please confirm that this is the email address of your ${PRODUCT_NAME} account. Open this link within 24 hours and press the button:`,
    ],
    link: { href: link, label: 'Confirm my email address' },
    after: ['If you did not create an account, ignore this email.'],
  });
}

/** To the new address of a change: the link that makes it the account's address. */
export function changeEmailEmail(link: string): EmailContent {
  return compose(`Confirm your new ${PRODUCT_NAME} email address`, {
    greeting: GREETING,
    before: [
      `Someone signed in to a ${PRODUCT_NAME} account asked to use this email address for it. To make the change, open this link within 24 hours and press the button:`,
    ],
    link: { href: link, label: 'Confirm my email address' },
    after: ['If you did not ask for it, ignore this email: nothing changes.'],
  });
}

/**
 * To the current address when a change is asked: the member learns of it before it happens, and
 * whoever holds a stolen session cannot ask quietly.
 */
export function emailChangeRequestedEmail(publicOrigin: string): EmailContent {
  return compose(`A change of your ${PRODUCT_NAME} email address was asked`, {
    greeting: GREETING,
    before: [
      `Someone signed in to your ${PRODUCT_NAME} account asked to change its email address. The address changes only when the link we sent to the new address is followed.`,
      'If it was not you, reset your password at once: that signs out every device.',
    ],
    link: { href: siteLink(publicOrigin, 'forgot-password'), label: 'Reset my password' },
    after: [],
  });
}

/** To the old address once a change is made. */
export function emailChangedEmail(publicOrigin: string): EmailContent {
  return compose(`Your ${PRODUCT_NAME} email address was changed`, {
    greeting: GREETING,
    before: [
      `The email address of your ${PRODUCT_NAME} account was just changed, and this address no longer signs in to it.`,
      'If you did not change it, contact us at once through the site.',
    ],
    link: { href: siteLink(publicOrigin), label: `Open ${PRODUCT_NAME}` },
    after: [],
  });
}

/**
 * To the owner of an address another member asked to change to: the asker gets the answer a free
 * address gets, so only the owner learns of it.
 */
export function emailAddressInUseEmail(publicOrigin: string): EmailContent {
  return compose(`Someone tried to use your ${PRODUCT_NAME} email address`, {
    greeting: GREETING,
    before: [
      `Someone signed in to another ${PRODUCT_NAME} account asked to change its email address to this one, which is already the address of your account. Nothing was changed, and nothing is needed from you.`,
      'If you have forgotten your password, you can choose a new one:',
    ],
    link: { href: siteLink(publicOrigin, 'forgot-password'), label: 'Reset my password' },
    after: [],
  });
}
