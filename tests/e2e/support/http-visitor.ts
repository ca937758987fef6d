import { newPerson } from './accounts';
import { cookieHeaderOf, keepSetCookie } from '../../../bench/cookie-jar.ts';

const nullBodyStatuses = new Set([101, 204, 205, 304]);

/**
 * A visitor over plain HTTP with a cookie jar of its own, for attacks a browser would not make:
 * every header (Origin, Sec-Fetch-Site, Cookie) is the test's to choose, and every answer's
 * `Set-Cookie` lines are there to read as the server wrote them.
 */
export class HttpVisitor {
  readonly cookies: Map<string, string>;

  readonly origin: string;

  /**
   * `cookies` may be another visitor's jar, shared: one browser whose requests a load balancer
   * sends to another server (another origin here, one site in production).
   */
  constructor(origin: string, cookies = new Map<string, string>()) {
    this.origin = origin;
    this.cookies = cookies;
  }

  /** Sends a request with this visitor's cookies (unless `headers` carries its own `cookie`). */
  async send(
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {},
  ): Promise<Response> {
    const response = await fetch(`${this.origin}${path}`, {
      method: init.method ?? 'GET',
      headers: { cookie: this.cookieHeader(), ...init.headers },
      body: init.body ?? null,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) keepSetCookie(this.cookies, line);
    // Read at once, so the connection goes back to the pool rather than waiting on a body no
    // test reads (the server closes idle connections, and a late reuse would fail).
    const body = await response.arrayBuffer();
    return new Response(nullBodyStatuses.has(response.status) ? null : body, {
      status: response.status,
      headers: response.headers,
    });
  }

  /** Posts a form as the page's own `<form method="post">` does, with the `_xsrf` field. */
  postForm(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return this.send(path, {
      method: 'POST',
      headers: { origin: this.origin, 'sec-fetch-site': 'same-origin', ...headers },
      body: new URLSearchParams({ ...fields, _xsrf: this.xsrfToken() }),
    });
  }

  /** The XSRF token the visitor's cookie holds ('' before its first page). */
  xsrfToken(): string {
    return this.cookies.get('XSRF-TOKEN') ?? '';
  }

  cookieHeader(overrides: Record<string, string> = {}): string {
    return cookieHeaderOf(new Map([...this.cookies, ...Object.entries(overrides)]));
  }
}

/** A visitor who has just looked at the sign-in page, so it holds an anonymous XSRF token. */
export async function anonymousVisitor(origin: string): Promise<HttpVisitor> {
  const visitor = new HttpVisitor(origin);
  await visitor.send('/sign-in');
  return visitor;
}

/** A visitor signed in with the sign-in form's post, as `credentials`, sent on to the Dashboard. */
export async function signedInVisitor(
  origin: string,
  credentials: { email: string; password: string },
): Promise<HttpVisitor> {
  const visitor = await anonymousVisitor(origin);
  const signedIn = await visitor.postForm('/sign-in?_action=auth.signIn', credentials);
  const location = signedIn.headers.get('location');
  if (location !== '/dashboard') {
    throw new Error(`Sign-in answered ${signedIn.status}, to ${location ?? 'nowhere'}`);
  }
  return visitor;
}

/**
 * A member of their own, just signed up, past the phone offer ("Skip for now"), on their
 * Dashboard: what a forged request could change is theirs alone.
 */
export async function newSignedInMember(origin: string): Promise<HttpVisitor> {
  const person = newPerson('Forge');
  const visitor = await anonymousVisitor(origin);
  const signedUp = await visitor.postForm('/sign-up?_action=auth.signUp', {
    name: person.firstName,
    last_name: person.lastName,
    email: person.email,
    password: person.password,
    terms_of_service: 'accepted',
  });
  if (signedUp.status !== 303) throw new Error(`Sign-up answered ${signedUp.status}`);
  const skipped = await visitor.postForm('/mfa-enrollment?_action=mfa.skip', {});
  if (skipped.status !== 303)
    throw new Error(`Skipping the phone offer answered ${skipped.status}`);
  return visitor;
}
