import { deleteAccount } from './account-data';
import { confirmApp, removeApp, renewRecoveryCodes, setUpApp } from './authenticator-app';
import { signIn, signOut, signUp } from './auth';
import {
  link as linkCompanySignIn,
  linkByAppCode as linkCompanySignInByAppCode,
  linkByRecoveryCode as linkCompanySignInByRecoveryCode,
  start as startCompanySignIn,
} from './company-sign-in';
import { endOtherSessions, endSession, forgetDevice } from './devices';
import { changeEmail, confirmEmail, resendConfirmation } from './email';
import { enroll, requestCode, skip, verifyRecoveryCode, verify } from './mfa';
import { changePassword, requestPasswordReset, resetPassword } from './password';
import {
  addPasskey,
  registrationOptions,
  removePasskey,
  signInOptions,
  signInWithPasskey,
  stepOptions,
  verifyPasskey,
} from './passkeys';
import { confirmPhone, removePhone, turnOffTwoStep } from './phone';
import { saveContact, saveInterests, saveProfile } from './profile';
import { confirmPassword } from './reauthentication';
import { addNote, cancel, create } from './requests';
import { requestUnlockLink, unlockAccount } from './unlock';
import { createDirectUpload } from './uploads';

/** The backend-for-frontend: every action validates its input, then calls the API. */
export const server = {
  account: {
    changePassword,
    changeEmail,
    resendConfirmation,
    deleteAccount,
    endSession,
    endOtherSessions,
    forgetDevice,
    confirmPhone,
    turnOffTwoStep,
    setUpApp,
    confirmApp,
    removeApp,
    removePhone,
    renewRecoveryCodes,
    passkeyOptions: registrationOptions,
    addPasskey,
    removePasskey,
    confirmPassword,
  },
  auth: {
    signIn,
    signOut,
    signUp,
    requestPasswordReset,
    resetPassword,
    unlockAccount,
    requestUnlockLink,
    confirmEmail,
    passkeyOptions: signInOptions,
    signInWithPasskey,
    startCompanySignIn,
    linkCompanySignIn,
    linkCompanySignInByAppCode,
    linkCompanySignInByRecoveryCode,
  },
  mfa: {
    enroll,
    requestCode,
    verify,
    verifyRecoveryCode,
    passkeyOptions: stepOptions,
    verifyPasskey,
    skip,
  },
  profile: { saveInterests, saveContact, saveProfile },
  requests: { create, addNote, cancel },
  uploads: { createDirectUpload },
};
