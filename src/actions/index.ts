import { signIn, signOut } from './auth';
import { requestPasswordReset, resetPassword } from './password';
import { requestUnlockLink, unlockAccount } from './unlock';

/** The backend-for-frontend: every action validates its input, then calls the API. */
export const server = {
  auth: { signIn, signOut, requestPasswordReset, resetPassword, unlockAccount, requestUnlockLink },
};
