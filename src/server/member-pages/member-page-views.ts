import { promisify } from 'node:util';
import { brotliCompress } from 'node:zlib';
import type { APIContext } from 'astro';
import type { CurrentUser } from '../api/profile';
import { config } from '../config';
import { acceptsCoding, pageBrotliParams } from '../http/content-coding';
import { cookieName } from '../session/cookies';
import { MemberPageCache, type KeptMemberPage } from './member-page-cache';

const compress = promisify(brotliCompress);

/**
 * A kept page is made again after this long whatever its version says: the versions cover every
 * writer the database sees, and this bounds what a writer nobody foresaw could leave stale.
 */
const MAX_AGE_MS = 10 * 60_000;

/**
 * The most pages kept for one member, whatever their sessions: a member's rounds (the Dashboard,
 * both tabs of Requests, a few requests and categories) fit, and one who asks for address after
 * address (a query the page ignores makes a new one), from as many sessions as they like, pushes
 * out only their own.
 */
const PAGES_PER_MEMBER = 16;

/** Headers of one answer alone, or that the kept copy sets itself. */
const headersOfOneAnswer = new Set([
  'set-cookie',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'date',
  'x-request-id',
  'vary',
]);

let cache: MemberPageCache<CurrentUser> | undefined;

function memberPages(): MemberPageCache<CurrentUser> {
  cache ??= new MemberPageCache({
    maxBytes: config().memberPageCacheBytes,
    maxPagesPerOwner: PAGES_PER_MEMBER,
    maxAgeMs: MAX_AGE_MS,
  });
  return cache;
}

/** A view of a page the route table marks `memberPageCache`, which may be served from a copy. */
interface MemberPageView {
  readonly key: string;
  /** The copy kept for this view, if any: valid only if the API finds its version current. */
  readonly kept: KeptMemberPage<CurrentUser> | undefined;
}

/**
 * The view this request is, when its page may be kept and served again: a GET of a page marked
 * `memberPageCache`, by a signed-in browser that takes brotli, with no toast to show; never under
 * `astro dev`, whose pages change with their files.
 */
export function memberPageView(context: APIContext): MemberPageView | undefined {
  const { locals, request, url, cookies } = context;
  const { route, session } = locals;
  if (import.meta.env.DEV || !memberPages().enabled) return undefined;
  if (request.method !== 'GET' || route.kind !== 'page' || !route.route.memberPageCache) {
    return undefined;
  }
  if (!session.token || locals.flash.length > 0) return undefined;
  if (!acceptsCoding(request.headers.get('accept-encoding'), 'br')) return undefined;
  const key = MemberPageCache.key([
    session.token,
    session.mfaToken ?? '',
    // The whole address: a page made for one of the server's names is not sent for another.
    url.origin,
    url.pathname,
    url.search,
    locals.xsrfToken,
    cookies.get(cookieName('onboarding'))?.value ?? '',
    'br',
  ]);
  return { key, kept: memberPages().get(key) };
}

/** The answer of a kept page, as it was first sent. */
export function keptPageResponse(page: KeptMemberPage<CurrentUser>): Response {
  const headers = new Headers(page.headers as [string, string][]);
  headers.set('content-encoding', 'br');
  headers.set('content-length', String(page.body.byteLength));
  headers.set('vary', 'Accept-Encoding');
  return new Response(page.body as Uint8Array<ArrayBuffer>, { status: page.status, headers });
}

/**
 * Keeps the page just rendered for this view, read at `version`, and answers with its compressed
 * copy. Only a whole page (200, HTML) that set no cookie and names no request is kept; anything
 * else is answered as it is.
 */
export async function keepPageView(
  context: APIContext,
  view: MemberPageView,
  version: string,
  member: CurrentUser,
  response: Response,
): Promise<Response> {
  const { headers } = response;
  if (response.status !== 200 || !(headers.get('content-type') ?? '').startsWith('text/html')) {
    return response;
  }
  if (headers.has('content-encoding') || headers.has('set-cookie')) return response;
  if (!context.cookies.headers().next().done) return response;
  const html = Buffer.from(await response.arrayBuffer());
  if (html.includes(context.locals.requestId)) {
    return new Response(html, { status: response.status, headers });
  }
  const body = await compress(html, { params: pageBrotliParams });
  const page: KeptMemberPage<CurrentUser> = {
    version,
    member,
    status: response.status,
    headers: [...headers].filter(([name]) => !headersOfOneAnswer.has(name.toLowerCase())),
    body,
  };
  memberPages().keep(view.key, page, member.external_id);
  return keptPageResponse(page);
}
