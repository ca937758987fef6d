import { RECOVERY_CODES_LOW } from '../../../contract/limits.ts';
import type { EmailContent } from './outbox.ts';

/**
 * The emails of the account journeys, each with a plain-text and an HTML part. Links are built from
 * the site's public origin, never from a request's Host header, so that nobody can make the API
 * mail a link to another site.
 */

/** The product's name as emails and authenticator apps show it. */
export const PRODUCT_NAME = 'Member Concierge';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** `${publicOrigin}${path}`, with the token path-encoded (tokens are base64url, so unchanged). */
function siteLink(publicOrigin: string, ...segments: string[]): string {
  return `${publicOrigin}/${segments.map(encodeURIComponent).join('/')}`;
}

export function resetPasswordLink(publicOrigin: string, token: string): string {
  return siteLink(publicOrigin, 'reset-password', token);
}

export function unlockLink(publicOrigin: string, token: string): string {
  return siteLink(publicOrigin, 'unlock', token);
}

interface Paragraphs {
  greeting: string;
  /** Paragraphs before the link. */
  before: string[];
  link?: { href: string; label: string };
  /** Paragraphs after the link. */
  after: string[];
  /** A second link, after the paragraphs that follow the first. */
  closingLink?: { href: string; label: string };
}

function compose(subject: string, parts: Paragraphs): EmailContent {
  const text = [
    parts.greeting,
    ...parts.before,
    ...(parts.link ? [parts.link.href] : []),
    ...parts.after,
    ...(parts.closingLink ? [parts.closingLink.href] : []),
    `— ${PRODUCT_NAME}`,
  ].join('\n\n');
  const paragraph = (content: string) => `<p>${escapeHtml(content)}</p>`;
  const linkParagraphs = (link: { href: string; label: string }) => [
    `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
    `<p style="font-size: 0.875em">If the button does not work, copy this address into your browser: ${escapeHtml(link.href)}</p>`,
  ];
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a">',
    paragraph(parts.greeting),
    ...parts.before.map(paragraph),
    ...(parts.link ? linkParagraphs(parts.link) : []),
    ...parts.after.map(paragraph),
    ...(parts.closingLink ? linkParagraphs(parts.closingLink) : []),
    paragraph(`— ${PRODUCT_NAME}`),
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

/**
 * These emails are about the account's security, so they hold no text a member wrote: a first
 * name such as "there. Your account was suspended - restore it at https://…" would otherwise read
 * as the product's own sentence in a genuine email. Hence no name in the greeting, and no name
 * passed in at all.
 */
const GREETING = 'Hello,';

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
