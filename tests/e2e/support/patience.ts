/**
 * How long a browser test waits for the first sign-in or sign-up on a server that has just
 * started: that server also loads its modules, runs its database's first queries and its first
 * password hashes, while the other worker's tests share the two cores. Seen to take over 15 s on
 * a slower machine of this project under the whole suite; 255 ms on a quiet one.
 */
export const firstSubmitOnFreshServer = { timeout: 30_000 } as const;
