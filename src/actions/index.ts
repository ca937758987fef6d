import { signIn, signOut } from './auth';

/** The backend-for-frontend: every action validates its input, then calls the API. */
export const server = {
  auth: { signIn, signOut },
};
