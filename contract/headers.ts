/** The headers the portal and the API (and its storage) agree on, beyond HTTP's own. */

/** The id a request's answer carries and its log lines repeat, passed on from server to server. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** The token the second step of sign-in issued, sent with the session's own. */
export const MFA_TOKEN_HEADER = 'mfa-token';

/** The declared checksum an upload carries: base64 SHA-256 of the content. */
export const CHECKSUM_HEADER = 'X-Checksum-SHA256';
