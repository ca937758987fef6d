/**
 * Every error text the API answers with. Clients show these to people (docs/PRODUCT.md §8), and the
 * portal matches some of them exactly, e.g. "MFA authentication required".
 */
export const ErrorMessage = {
  invalidCredentials: 'Invalid email or password.',
  companySignInFailed:
    'We could not sign you in with your company’s account. Please try again, or ask your company’s IT team for help.',
  companySignInExpired:
    'This sign-in with your company has expired or was already used. Please start again.',
  companySignInRequired:
    'Your company signs you in with your work account, not a password here. Go to Sign in and enter your work email address.',
  companySignInUnavailable:
    'Your company’s sign-in is not answering. Please try again in a few minutes.',
  lockedAccountLink:
    'This account is locked after too many wrong passwords. Use the unlock link we emailed you, or wait, then connect it again.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  mfaRequired: 'MFA authentication required',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  malformedJson: 'Malformed JSON body.',
  badRequest: 'Bad request.',
  unsupportedMediaType: 'Request body must be JSON (Content-Type: application/json).',
  bodyTooLarge: 'Request body too large.',
  notFound: 'Not found.',
  invalidResetToken:
    'This password reset link is invalid or has expired. Please request a new one.',
  passwordConfirmationMismatch: 'Password confirmation does not match the password.',
  wrongCurrentPassword: 'Your current password is not right.',
  samePassword: 'Choose a password different from your current one.',
  invalidUnlockToken: 'This unlock link is invalid or has expired. You can request a new one.',
  emailTaken: 'An account with this email address already exists.',
  invalidConfirmationToken:
    'This confirmation link is invalid or has expired. Sign in to ask for a new one.',
  supersededResetToken:
    'This password reset link no longer works: your password, email address or two-step verification changed after it was sent. Please request a new one.',
  supersededUnlockToken:
    'This unlock link no longer works: your password, email address or two-step verification changed after it was sent. You can request a new one.',
  supersededConfirmationToken:
    'This confirmation link no longer works: your password, email address or two-step verification changed after it was sent. Sign in to ask for a new one.',
  recentPasswordRequired: 'Enter your password again before you add a way to sign in.',
  emailTakenSinceAsked:
    'This email address is now used by another account, so yours was not changed.',
  emailAlreadyVerified: 'Your email address is already confirmed.',
  sameEmail: 'That is already your email address.',
  unknownCompany: 'We do not know that company. Check the link you were given.',
  termsNotAccepted: 'Please accept the terms of service to create your account.',
  noPhoneForCode: 'Enter your phone number first, then ask for a code.',
  codeResendTooSoon:
    'We have just sent you a code. Please wait a minute before asking for another.',
  codeHourlyLimit: 'You have asked for too many codes. Please wait a while and try again.',
  invalidMfaCode: 'Unable to verify MFA token',
  companyRequiresMfa: 'Your company requires two-step verification.',
  twoStepAlreadyOff: 'Two-step verification is already off.',
  noAppSetUp: 'Set up your authenticator app first, then enter a code from it.',
  noAppToRemove: 'There is no authenticator app on your account.',
  lastFactorRequired:
    'Your company requires two-step verification: add another way to sign in before you remove this one.',
  noPhoneToRemove: 'There is no phone to remove from two-step verification.',
  invalidRecoveryCode: 'That recovery code is not right, or it has been used already.',
  passkeyNameMissing: 'Enter a name for the passkey.',
  passkeyNameTooLong: 'The name must be 60 characters or fewer.',
  passkeyNotAdded: 'That passkey could not be added. Try again.',
  tooManyPasskeys: 'You have 10 passkeys already: remove one before you add another.',
  noPasskey: 'You have no passkey on your account.',
  passkeyNotAccepted: 'That passkey could not be checked. Try again, or use another way.',
  passkeySignInFailed:
    'That passkey could not sign you in. Try again, or sign in with your email and password.',
  passkeyNotFound: 'That passkey is no longer on your account.',
  noTwoStepForRecoveryCodes: 'Turn on two-step verification before making recovery codes.',
  contactPhoneRequired: 'Add a phone number to be contacted by phone or text.',
  unknownCategory: 'Choose one of the request categories.',
  attachmentNotFound: 'We cannot find that file. Please upload it again.',
  attachmentNotUploaded: 'That file has not finished uploading. Please wait, or upload it again.',
  attachmentAlreadyAttached: 'That file is already attached elsewhere. Please upload it again.',
  emptyNote: 'Write a note or attach a file.',
  requestClosed: 'This request is already closed.',
  sessionNotFound: 'That session has already ended.',
  rememberedDeviceNotFound: 'That device is no longer remembered.',
  fileTooLarge: 'Files can be at most 25 MB.',
  uploadAddressInvalid:
    'This upload address is invalid or has expired. Please upload the file again.',
  uploadContentTypeMismatch: 'The file is not of the type declared for this upload.',
  uploadChecksumMismatch: 'The file does not match the checksum declared for this upload.',
  uploadTooLarge: 'The file is larger than declared for this upload.',
  uploadIncomplete: 'The file is smaller than declared for this upload: it did not arrive whole.',
  uploadAlreadyDone: 'This file has already been uploaded.',
  downloadAddressInvalid:
    'This download link is invalid or has expired. Please open the file again from its request.',
  internal: 'Something went wrong. Please try again later.',
  unavailable: 'The service is unavailable. Please try again in a few minutes.',
} as const;
