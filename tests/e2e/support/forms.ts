import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';

/**
 * A visitor without a browser, for attacks a browser would not make: it keeps its cookies, and
 * posts forms as the sign-in page's plain form does (same-site Origin, the `_xsrf` field), with
 * whatever extra headers a test adds.
 */
export interface FormVisitor {
  readonly request: APIRequestContext;
  /** The XSRF token this visitor's cookie holds (after its first page view). */
  xsrfToken(): Promise<string>;
  /** Posts the sign-in form; answers 303 on success and re-renders the page otherwise. */
  signIn(
    credentials: { email: string; password: string },
    headers?: Record<string, string>,
  ): Promise<number>;
  dispose(): Promise<void>;
}

export async function newFormVisitor(baseURL: string): Promise<FormVisitor> {
  const request = await playwrightRequest.newContext({ baseURL });
  await request.get('/sign-in');
  const xsrfToken = async () => cookieValue(request, 'XSRF-TOKEN');
  return {
    request,
    xsrfToken,
    async signIn(credentials, headers = {}) {
      const response = await request.post('/sign-in?_action=auth.signIn', {
        headers: { origin: baseURL, ...headers },
        form: { ...credentials, _xsrf: await xsrfToken() },
        maxRedirects: 0,
      });
      return response.status();
    },
    dispose: () => request.dispose(),
  };
}

/** The value of one of the context's cookies; throws when it has none of that name. */
export async function cookieValue(request: APIRequestContext, name: string): Promise<string> {
  const { cookies } = await request.storageState();
  const cookie = cookies.find((candidate) => candidate.name === name);
  if (!cookie) throw new Error(`No ${name} cookie`);
  return cookie.value;
}

/** Runs `count` tasks, `concurrency` at a time, and returns their results in order. */
export async function inBatches<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, count - start) }, (_, offset) =>
      task(start + offset),
    );
    results.push(...(await Promise.all(batch)));
  }
  return results;
}
