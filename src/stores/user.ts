import { atom } from 'nanostores';

/** What the islands share about the signed-in member. */
interface UserState {
  /** How many requests the member has made; counted up locally the moment one is made. */
  readonly requestCount: number;
}

/**
 * The signed-in member as the islands of a page know them: empty until the first island seeds it
 * from the user the server rendered the page with.
 */
export const $user = atom<UserState | null>(null);

/**
 * Takes the server's user, unless an island already did: a request counted locally must not be
 * undone by an island that hydrates after it, with the server's older number.
 */
export function seedUser(user: UserState): void {
  if ($user.get() === null) $user.set(user);
}

/** `request_count` goes up locally as soon as a request is made. */
export function countNewRequest(): void {
  const user = $user.get();
  if (user) $user.set({ ...user, requestCount: user.requestCount + 1 });
}
