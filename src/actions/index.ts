import { deleteAccount } from './account-data';
import { confirmApp, removeApp, setUpApp } from './authenticator-app';
import { signIn, signOut, signUp } from './auth';
import { endOtherSessions, endSession } from './devices';
import { changeEmail, confirmEmail, resendConfirmation } from './email';
import { enroll, requestCode, skip, verify } from './mfa';
import { changePassword, requestPasswordReset, resetPassword } from './password';
import { confirmPhone, turnOffTwoStep } from './phone';
import { saveContact, saveInterests, saveProfile } from './profile';
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
    confirmPhone,
    turnOffTwoStep,
    setUpApp,
    confirmApp,
    removeApp,
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
  },
  mfa: { enroll, requestCode, verify, skip },
  profile: { saveInterests, saveContact, saveProfile },
  requests: { create, addNote, cancel },
  uploads: { createDirectUpload },
};
