/**
 * Why `npm audit` checked nothing, from what it printed, in one line for a newcomer; or
 * `undefined` when it did check (its own report then says what it found). A registry that
 * answered with an HTTP error (a mirror without the audit service answers 404 or 405) is told
 * apart from one that never answered, since only the second is fixed by a network.
 *
 * @param {string} output npm audit's standard output and error, together
 * @returns {string | undefined}
 */
export function auditFailure(output) {
  // npm 10 and later: "npm warn audit 405 Method Not Allowed - POST <url> - <body>"; older ones
  // wrote "npm ERR! 405 Method Not Allowed - POST <url>".
  const answered = /(?:^|\s)([1-5]\d\d)(?: ([^\n]*?))? - (?:GET|POST) https?:\/\//m.exec(output);
  if (answered) {
    const status = [answered[1], answered[2]?.trim()].filter(Boolean).join(' ');
    return `The registry answered ${status} to the audit request: no advisories were checked.`;
  }
  const network =
    /reason: ([^\n]+)|\b((?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b[^\n]*|(?:CERT_|UNABLE_TO_GET_ISSUER_CERT|SELF_SIGNED_CERT)\w*)/.exec(
      output,
    );
  if (network) {
    const reason = (network[1] ?? network[2] ?? '').trim();
    return (
      `npm audit could not reach the package registry (${reason}): no advisories were checked. ` +
      'Run it again with network access to the registry (or the mirror npm is configured for).'
    );
  }
  if (/audit endpoint returned an error/i.test(output)) {
    return 'The registry gave no usable answer to the audit request: no advisories were checked.';
  }
  return undefined;
}
