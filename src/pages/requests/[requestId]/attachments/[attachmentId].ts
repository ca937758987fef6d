import type { APIRoute } from 'astro';
import { pageReads } from '../../../../server/api/page-reads';

/**
 * RequestAttachment: sends the browser to a fresh, short-lived signed address of one of the
 * request's files. The address is never cached, since it expires in minutes. A file that is not
 * this request's, or a request that is not the member's, is a 404.
 */
export const GET: APIRoute = async (context) => {
  const { attachmentId = '' } = context.params;
  const api = await context.locals.api();
  const reads = pageReads.RequestAttachment(context);
  const request = await reads.request.read(api);
  const belongs = request?.attachments.some((attachment) => attachment.id === attachmentId);
  const download = belongs ? await reads.download.read(api) : undefined;
  const location = download && safeRedirectTarget(download.url, context.url);
  if (!location) return context.rewrite('/404');
  return new Response(null, {
    status: 302,
    headers: { location, 'cache-control': 'no-store' },
  });
};

/** Only a web address (the site's own storage, or an S3 presigned one) is followed. */
function safeRedirectTarget(url: string, base: URL): string | undefined {
  try {
    const target = new URL(url, base);
    return target.protocol === 'https:' || target.protocol === 'http:' ? target.href : undefined;
  } catch {
    return undefined;
  }
}
