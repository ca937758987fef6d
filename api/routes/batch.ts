import { Hono } from 'hono';
import { z } from 'zod';
import { requireSession, shareCheckedSession } from '../http/authentication.ts';
import type { ApiDependencies, ApiEnv } from '../http/context.ts';
import { errorResponse } from '../http/errors.ts';
import { jsonBody } from '../http/validation.ts';

/** The most reads one batch may carry: what the busiest page needs, with room for one more. */
export const MAX_BATCH_READS = 5;

/** Where a batch's reads may go: the API's own calls, never the batch itself. */
const API_PREFIX = '/api/v1/';
const BATCH_PATH = '/api/v1/batch';

const batchBody = z.object({
  requests: z
    .array(z.object({ method: z.literal('GET'), path: z.string().min(1).max(1000) }))
    .min(1)
    .max(MAX_BATCH_READS),
  /**
   * The member's data version the caller's copy of a page was made with: when it is still the
   * member's, the reads are not made and the answer is `{"version", "unchanged": true}`.
   */
  unless_version: z.string().max(20).optional(),
});

/**
 * POST /api/v1/batch: up to five GET calls of one member in one, with one session check. A page
 * needs the member and its own data; asked one call at a time, every call would check the session
 * and load the member again. Each read goes through the whole API as if it had been sent alone (its
 * validation, its rate limits, its answer), except that the session this call checked is taken as
 * checked: `{"responses": [{"status", "body"}]}`, in the order asked. A read's failure is its own
 * entry; the batch answers 401 as any call would when the session is not live or awaits its code.
 * Every answer carries the member's data `version`, read by the session check before any read (so
 * the reads are at least as new as it is), which a later batch may send as `unless_version` to
 * learn, after the session check alone, that nothing the member's pages show has changed since.
 */
export function createBatchRoutes(dependencies: ApiDependencies, api: () => Hono) {
  return new Hono<ApiEnv>().post(
    '/',
    requireSession(dependencies),
    jsonBody(batchBody),
    async (c) => {
      const { requests, unless_version: unlessVersion } = c.req.valid('json');
      const base = new URL(c.req.url);
      const addresses: URL[] = [];
      for (const [index, read] of requests.entries()) {
        const address = readAddress(base, read.path);
        if (!address) {
          return errorResponse(
            c,
            400,
            `requests.${index}.path must be a path of the API (${API_PREFIX}…), not the batch.`,
            `requests.${index}.path`,
          );
        }
        addresses.push(address);
      }
      const version = String(c.get('user').dataVersion);
      if (unlessVersion === version) return c.json({ version, unchanged: true });
      const checked = {
        session: c.get('session'),
        user: c.get('user'),
        companyName: c.get('companyName'),
        companyRequiresMfa: c.get('companyRequiresMfa'),
        mfaVerified: c.get('mfaVerified'),
        memberFacts: c.get('memberFacts'),
      };
      const headers = readHeaders(c.req.raw.headers);
      const responses = await Promise.all(
        addresses.map(async (address) => {
          const read = new Request(address, { headers });
          shareCheckedSession(read, checked);
          const answer = await api().fetch(read, c.env);
          return `{"status":${answer.status},"body":${await jsonText(answer)}}`;
        }),
      );
      // The reads' JSON as they wrote it, not parsed only to be written again.
      const answer = `{"version":${JSON.stringify(version)},"responses":[${responses.join(',')}]}`;
      return c.body(answer, 200, { 'Content-Type': 'application/json' });
    },
  );
}

/** The address of a read, when it is one of the API's calls on this server (never the batch). */
function readAddress(base: URL, path: string): URL | undefined {
  if (!path.startsWith(API_PREFIX)) return undefined;
  const address = new URL(path, base);
  // Resolved: dot segments and backslashes could otherwise lead out of the API.
  if (address.origin !== base.origin) return undefined;
  if (!address.pathname.startsWith(API_PREFIX)) return undefined;
  if (address.pathname.replace(/\/+$/u, '') === BATCH_PATH) return undefined;
  return address;
}

/** The batch's own headers (address, browser, request id, credentials), without its body's. */
function readHeaders(headers: Headers): Headers {
  const copy = new Headers(headers);
  for (const name of ['content-type', 'content-length', 'transfer-encoding']) copy.delete(name);
  return copy;
}

/** A read's answer as JSON text: the API's own JSON as it is, anything else as its JSON or null. */
async function jsonText(response: Response): Promise<string> {
  const text = await response.text();
  if (!text) return 'null';
  if (response.headers.get('content-type')?.startsWith('application/json')) return text;
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return 'null';
  }
}
