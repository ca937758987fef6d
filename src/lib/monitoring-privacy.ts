/**
 * What the error-reporting service must never receive: passwords, one-time codes, tokens and
 * cookies. Used on events, breadcrumbs and replay recordings, in the browser and on the server
 * alike. The replay itself never records what is typed (its masking options); this is what remains:
 * addresses that carry tokens, query strings, request bodies and headers, and any field whose name
 * says it holds a secret. The tokens in addresses are found by the redactor given to
 * {@link privacyScrubbers}: the route table's on the server, its rules as data in the browser.
 */

const redacted = '[redacted]';

/** Names of fields that hold secrets, wherever they appear. */
const secretName = /pass(word)?|code|otp|token|secret|cookie|authori[sz]ation|session|xsrf|mfa/i;

const queryValue = /([?&][^=&#\s"'<>]+=)[^&#\s"'<>]+/g;

interface ReportedRequest {
  url?: string;
  headers?: Record<string, string>;
  cookies?: unknown;
  data?: unknown;
  query_string?: unknown;
}

/** Headers worth keeping on a reported request; the others may carry credentials. */
const keptHeaderNames = ['user-agent', 'accept-language', 'content-type'];
const keptHeaders = new Set(keptHeaderNames);

/**
 * What the SDKs may collect on their own (their `dataCollection` option), browser and server:
 * no user details beyond the id we set, no cookies, no bodies, no query strings, only harmless
 * headers.
 */
export const dataCollection = {
  userInfo: false,
  cookies: false,
  httpHeaders: { request: { allow: keptHeaderNames }, response: false },
  httpBodies: [],
  urlQueryParams: false,
};

/** What scrubs events, breadcrumbs and recordings, given what redacts tokens in addresses. */
export interface PrivacyScrubbers {
  readonly scrubText: (text: string) => string;
  readonly scrubValue: <T>(value: T) => T;
  readonly scrubEvent: <E extends object>(event: E) => E;
}

/** The scrubbers that find the tokens in addresses with `redactPathTokens`. */
export function privacyScrubbers(redactPathTokens: (text: string) => string): PrivacyScrubbers {
  /**
   * A string with every token-bearing address in it redacted: the tokens the route table's paths
   * carry and the values of query strings.
   */
  function scrubText(text: string): string {
    return redactPathTokens(text).replace(queryValue, `$1${redacted}`);
  }

  /**
   * A copy of `value` with secret-named fields replaced and token-bearing addresses redacted in
   * every string, however deep (up to a limit past which nothing is kept).
   */
  function scrubValue<T>(value: T, depth = 0): T {
    if (typeof value === 'string') return scrubText(value) as T;
    if (typeof value !== 'object' || value === null) return value;
    if (depth > 12) return redacted as T;
    if (Array.isArray(value)) return value.map((item: unknown) => scrubValue(item, depth + 1)) as T;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] = secretName.test(key) ? redacted : scrubValue(item, depth + 1);
    }
    return copy as T;
  }

  /**
   * An event as it may leave: no request body, cookies or query string, only harmless headers,
   * the member only by id, and everything else scrubbed by {@link scrubValue}.
   */
  function scrubEvent<E extends object>(event: E): E {
    type Reported = E & { request?: ReportedRequest; user?: unknown };
    const { request, user, ...rest } = event as Reported;
    const scrubbed = scrubValue(rest) as Reported;
    if (request) {
      const headers = Object.fromEntries(
        Object.entries(request.headers ?? {}).filter(([name]) =>
          keptHeaders.has(name.toLowerCase()),
        ),
      );
      scrubbed.request = {
        ...(request.url === undefined ? {} : { url: scrubText(request.url) }),
        headers,
      };
    }
    const id = (user as { id?: unknown } | undefined)?.id;
    if (id !== undefined) scrubbed.user = { id };
    return scrubbed;
  }

  return { scrubText, scrubValue: (value) => scrubValue(value), scrubEvent };
}
