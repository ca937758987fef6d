import { RECOVERY_CODES_LOW } from '../../contract/limits.ts';
import { type SecurityEventKind } from '../../contract/security-event-kinds.ts';

/** Words of docs/PRODUCT.md §8 and of the product's own notices, shared by actions and islands. */
export const signInFallbackMessage = 'Unable to sign in at this time. Please try again later.';
export const signedOutMessage = 'You have been signed out.';
export const companySignInFallbackMessage =
  'Unable to sign in with your company at this time. Please try again later.';
/**
 * CompanySignInLink's lead for each way the member proves the account the company's provider
 * named: its password, a code of its authenticator app, or one of its recovery codes.
 */
export const companySignInLinkLead = (
  way: 'password' | 'app' | 'recovery_code',
  { email, companyName }: { email: string; companyName: string },
): string => {
  const proof =
    way === 'app'
      ? 'Enter a code from its authenticator app once'
      : way === 'recovery_code'
        ? 'Enter one of its recovery codes once (that code is then used up)'
        : 'Enter its password once';
  return `You already have an account with ${email}. ${proof}, and ${companyName} signs you in from now on.`;
};
export const passwordResetFallbackMessage =
  'Unable to reset password at this time. Please try again later.';
export const resetLinkSentMessage =
  'If that email address has an account, we have emailed a link to reset its password.';
export const passwordChangedMessage =
  'Your password has been changed. Sign in with your new password.';
export const passwordChangeFallbackMessage =
  'Unable to change your password at this time. Please try again later.';
export const passwordChangedWhileSignedInMessage = 'Your password has been changed.';
export const accountDeletedMessage =
  'Your account has been deleted. We have emailed you to confirm it.';
export const accountDeletionFallbackMessage =
  'Unable to delete your account at this time. Please try again later.';
/** What the member types to confirm the deletion: words, so it is never typed by chance. */
export const accountDeletionPhrase = 'delete my account';
export const accountDeletionPhraseMessage = `Type ${accountDeletionPhrase} to confirm`;
export const dataExportFallbackMessage =
  'Unable to prepare your data at this time. Please try again later.';
export const deviceSignedOutMessage = 'That device has been signed out.';
export const otherDevicesSignedOutMessage = 'Every other device has been signed out.';
export const devicesFallbackMessage =
  'Unable to sign that device out at this time. Please try again later.';
export const deviceForgottenMessage =
  'That device is forgotten: its next sign-in will ask for a code.';
export const forgetDeviceFallbackMessage =
  'Unable to forget that device at this time. Please try again later.';
export const emailConfirmedMessage = 'Thank you, your email address is confirmed.';
export const emailChangedMessage = (email: string) => `Your email address is now ${email}.`;
export const emailConfirmationFallbackMessage =
  'Unable to confirm your email address at this time. Please try again later.';
export const confirmationLinkSentMessage = (email: string) => `We sent a new link to ${email}.`;
export const emailChangeRequestedMessage = (email: string) =>
  `We sent a link to ${email}. Your address changes when you follow it.`;
export const emailChangeFallbackMessage =
  'Unable to change your email address at this time. Please try again later.';
export const unlockFallbackMessage =
  'Unable to unlock your account at this time. Please try again later.';
export const accountUnlockedMessage = 'Your account has been unlocked. You can now sign in.';
export const unlockLinkSentMessage =
  'If that email address has a locked account, we have emailed a new link to unlock it.';
export const mfaEnrollFallbackMessage = 'Unable to enroll in MFA at this time.';
export const mfaSendCodeFallbackMessage = 'Unable to request MFA token at this time.';
export const mfaVerifyFallbackMessage = 'Unable to verify MFA token';
export const noMfaTokenMessage = 'No MFA verification token received';
export const twoStepTurnOffFallbackMessage =
  'Unable to turn off two-step verification at this time. Please try again later.';
export const twoStepTurnedOffMessage =
  'Two-step verification is off. Signing in now takes only your password.';
/** The toast once a phone is confirmed in the Account area, naming its last two digits. */
export const twoStepPhoneConfirmedMessage = (lastDigits: string) =>
  `Your sign-in codes now go to the phone number ending ${lastDigits.slice(-2)}.`;
export const reauthenticationFallbackMessage =
  'Unable to check your password at this time. Please try again later.';
export const reauthenticatedMessage =
  'Password confirmed: for the next 10 minutes you can add a way to sign in.';
export const appSetupFallbackMessage =
  'Unable to set up an authenticator app at this time. Please try again later.';
export const appAddedMessage =
  'Your authenticator app is set up: signing in can now take a code from it.';
export const appRemoveFallbackMessage =
  'Unable to remove the authenticator app at this time. Please try again later.';
export const appRemovedMessage =
  'The authenticator app is removed: its codes no longer sign you in.';
export const phoneRemoveFallbackMessage =
  'Unable to remove the phone at this time. Please try again later.';
export const phoneRemovedMessage =
  'The phone is removed: codes are no longer texted to it when you sign in.';
export const recoveryCodesFallbackMessage =
  'Unable to make new recovery codes at this time. Please try again later.';
export const recoveryCodeFallbackMessage = 'Unable to check the recovery code at this time.';

/** Passkeys. */
export const passkeyAddFallbackMessage = 'Unable to add the passkey at this time.';
export const passkeyRemoveFallbackMessage = 'Unable to remove the passkey at this time.';
export const passkeyStepFallbackMessage = 'Unable to check the passkey at this time.';
export const passkeySignInFallbackMessage = 'Unable to sign in with a passkey at this time.';
/** The browser's dialog was closed, or timed out, without a passkey chosen. */
export const passkeyCancelledMessage = 'No passkey was used. Try again, or use another way.';
/** The browser cannot use passkeys at all. */
export const passkeyUnsupportedMessage =
  'This browser cannot use passkeys. Use another way, or another browser.';
/** This authenticator holds one of the member's passkeys already. */
export const passkeyAlreadyAddedMessage = 'This device already holds a passkey for your account.';
export const passkeyAddedMessage = 'Passkey added. You can now sign in with it.';
export const passkeyRemovedMessage = 'Passkey removed.';
/** Said where JavaScript is off, beside the ways that work without it. */
export const passkeysNeedJavaScriptMessage =
  'Passkeys need JavaScript, which is off in this browser.';
/** The toast after signing in with a recovery code: how many are left, and what to do when few. */
export const recoveryCodeUsedMessage = (left: number) => {
  const count =
    left === 0
      ? 'You have no recovery codes left.'
      : left === 1
        ? 'You have 1 recovery code left.'
        : `You have ${left} recovery codes left.`;
  return left <= RECOVERY_CODES_LOW
    ? `You signed in with a recovery code. ${count} Make new ones in Sign-in and security.`
    : `You signed in with a recovery code. ${count}`;
};
export const profileFallbackMessage =
  'Unable to save your answers at this time. Please try again later.';
export const profileSavedMessage = 'Your profile has been saved.';
export const profileSaveFallbackMessage =
  'Unable to save your profile at this time. Please try again later.';
export const onboardingDoneMessage = 'You are all set. Welcome to Member Concierge.';
export const requestSentMessage = 'Your request has been sent.';
export const requestFallbackMessage =
  'Unable to send your request at this time. Please try again later.';
export const noteAddedMessage = 'Your note has been added.';
export const noteFallbackMessage = 'Unable to add your note at this time. Please try again later.';
export const requestCancelledMessage = 'Your request has been cancelled.';
export const cancelFallbackMessage =
  'Unable to cancel your request at this time. Please try again later.';
export const uploadFallbackMessage =
  'Unable to upload your file at this time. Please try again later.';
export const uploadFailedMessage = 'The file could not be uploaded. Please try again.';
export const categoryMissingMessage = 'Choose a category';
export const titleMissingMessage = 'Enter a title for your request';
export const titleTooLongMessage = 'Title must be 120 characters or fewer';
export const detailsTooLongMessage = 'Details must be 5000 characters or fewer';
export const noteEmptyMessage = 'Write a note or add a file';
export const noteTooLongMessage = 'Note must be 5000 characters or fewer';
/**
 * Text with U+0000 or half of a surrogate pair, which the API refuses because it cannot store it as
 * typed: named by the field's label, never by the API's field path.
 */
export const unsavableCharacterMessage = (fieldLabel = 'Your answer'): string =>
  `${fieldLabel} contains a character that cannot be saved. Remove any null characters or broken emoji`;

/** A sign-up link whose company the API does not know. */
export const unknownCompanyLinkHeading = 'This company link is not known';
export const unknownCompanyLinkLead =
  'We do not know that company. Check the link you were given, or create an account on your own: you can still join your company later.';

/**
 * The Activity page's sentence for each kind of security event, and the one for a kind this portal
 * does not know yet.
 */
const sentenceOfEachKind = {
  signed_in: 'Signed in',
  sign_in_failed: 'Failed sign-in attempt',
  locked: 'Account locked after too many attempts',
  unlocked: 'Account unlocked with the emailed link',
  password_changed: 'Password changed',
  password_reset: 'Password reset with the emailed link',
  email_verified: 'Email address confirmed',
  email_change_requested: 'Change of email address requested',
  email_changed: 'Email address changed',
  two_step_enabled: 'Two-step verification turned on',
  two_step_phone_changed: 'Two-step verification phone changed',
  two_step_disabled: 'Two-step verification turned off',
  two_step_codes_paused: 'Sign-in codes paused after too many wrong codes',
  authenticator_app_added: 'Authenticator app added',
  authenticator_app_removed: 'Authenticator app removed',
  two_step_phone_removed: 'Two-step verification phone removed',
  recovery_codes_renewed: 'New recovery codes made',
  recovery_code_used: 'Signed in with a recovery code',
  passkey_added: 'Passkey added',
  passkey_removed: 'Passkey removed',
  device_remembered: 'Device remembered for 30 days',
  remembered_device_forgotten: 'Remembered device forgotten',
  session_ended: 'A device was signed out',
  other_sessions_ended: 'All other devices were signed out',
  signed_out: 'Signed out',
  company_sign_in: 'Signed in with your company’s account',
  company_sign_in_linked: 'Account connected to your company’s sign-in',
  all_sessions_ended: 'Signed out on every device by an administrator',
} satisfies Record<SecurityEventKind, string>;
// Looked up by the API's string, which may name a kind this portal does not know yet.
export const securityEventSentences: Readonly<Record<string, string>> = sentenceOfEachKind;
export const unknownSecurityEventSentence = 'Account activity';
export const noActivityMessage = 'There is no activity on your account in the last 90 days.';
