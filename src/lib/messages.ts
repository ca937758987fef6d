/** Words of docs/PRODUCT.md §8 and of the product's own notices, shared by actions and islands. */
export const signInFallbackMessage = 'Unable to sign in at this time. Please try again later.';
export const signedOutMessage = 'You have been signed out.';
export const passwordResetFallbackMessage =
  'Unable to reset password at this time. Please try again later.';
export const resetLinkSentMessage =
  'If that email address has an account, we have emailed a link to reset its password.';
export const passwordChangedMessage =
  'Your password has been changed. Sign in with your new password.';
export const passwordChangeFallbackMessage =
  'Unable to change your password at this time. Please try again later.';
export const passwordChangedWhileSignedInMessage = 'Your password has been changed.';
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
export const uploadUnfinishedMessage = 'Wait until your file has uploaded, or remove it.';
export const categoryMissingMessage = 'Choose a category';
export const titleMissingMessage = 'Enter a title for your request';
export const titleTooLongMessage = 'Title must be 120 characters or fewer';
export const detailsTooLongMessage = 'Details must be 5000 characters or fewer';
export const noteEmptyMessage = 'Write a note or add a file';
export const noteTooLongMessage = 'Note must be 5000 characters or fewer';
/**
 * Text with U+0000 or half of a surrogate pair, which the API refuses because it cannot store it
 * as typed (docs/DECISIONS.md): named by the field's label, never by the API's field path.
 */
export const unsavableCharacterMessage = (fieldLabel = 'Your answer'): string =>
  `${fieldLabel} contains a character that cannot be saved. Remove any null characters or broken emoji`;

/** A sign-up link whose company the API does not know (docs/PRODUCT.md §3). */
export const unknownCompanyLinkHeading = 'This company link is not known';
export const unknownCompanyLinkLead =
  'We do not know that company. Check the link you were given, or create an account on your own: you can still join your company later.';
