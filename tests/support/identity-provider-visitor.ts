/**
 * A browser for the tests' identity providers, driven over `fetch`: it keeps the provider's
 * cookies, follows its redirects, and stops at the first one that leads back to the portal
 * (`returnTo`, whose address is returned, never fetched) or at a page.
 */
export class ProviderVisitor {
  readonly #cookies = new Map<string, string>();
  readonly #returnTo: string;

  constructor(returnTo: string) {
    this.#returnTo = returnTo;
  }

  get(url: string): Promise<Response> {
    return this.#send(url, { method: 'GET' });
  }

  post(url: string, form: Record<string, string>): Promise<Response> {
    return this.#send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }

  /**
   * Follows redirects from `response` until one leads back to the portal or a page answers
   * (returned with its URL).
   */
  async follow(
    response: Response,
    url: string,
  ): Promise<{ callback: URL } | { page: Response; url: string }> {
    let current = response;
    let currentUrl = url;
    for (let hops = 0; hops < 10; hops += 1) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || location === null) {
        return { page: current, url: currentUrl };
      }
      const next = new URL(location, currentUrl);
      if (next.href.startsWith(this.#returnTo)) return { callback: next };
      currentUrl = next.href;
      current = await this.get(currentUrl);
    }
    throw new Error(`Too many redirects, the last to ${currentUrl}`);
  }

  async #send(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.#cookies.size > 0) {
      headers.set(
        'cookie',
        [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      );
    }
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const separator = pair.indexOf('=');
      const value = pair.slice(separator + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) {
        this.#cookies.delete(pair.slice(0, separator));
      } else {
        this.#cookies.set(pair.slice(0, separator), value);
      }
    }
    return response;
  }
}

/** What a person types on the OpenID Connect provider's login page. */
export interface OidcLoginForm {
  email: string;
  password: string;
  /** `on` when they also used their security key. */
  second_step?: string;
}

/**
 * Goes from the provider's authorization address through its login page to the address it sends
 * the browser back to the portal with.
 */
export async function signInAtOidcProvider(
  authorizationUrl: string,
  returnTo: string,
  form: OidcLoginForm,
): Promise<URL> {
  const visitor = new ProviderVisitor(returnTo);
  const reached = await visitor.follow(await visitor.get(authorizationUrl), authorizationUrl);
  if (!('page' in reached)) return reached.callback;
  const action = `${reached.url}/login`;
  const back = await visitor.follow(await visitor.post(action, { ...form }), action);
  if (!('callback' in back)) {
    throw new Error(`The provider answered a page: ${String(back.page.status)}`);
  }
  return back.callback;
}
