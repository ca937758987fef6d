import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError, type ApiClient, type ApiTransport } from './client';
import { apiEndpoint } from './transport';
import { config, siteOrigin } from '../config';

/**
 * Direct uploads: the API hands out a signed, expiring address for one file, and the file goes
 * straight to storage. Browsers with JavaScript upload there themselves; for a form posted without
 * JavaScript, the action does it with these.
 */

/** What a member declares about a file before uploading it. */
export interface FileDeclaration {
  readonly filename: string;
  readonly content_type: string;
  readonly byte_size: number;
  /** Base64 SHA-256 of the content. */
  readonly checksum: string;
}

const directUploadSchema = z.object({
  id: z.string().min(1),
  filename: z.string(),
  content_type: z.string(),
  byte_size: z.number().int().nonnegative(),
  direct_upload: z.object({
    url: z.url({ protocol: /^https?$/ }),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()),
  }),
  expires_at: z.iso.datetime({ offset: true }),
});

/** The API's answer: the file's id, and where and how to send it. */
export type DirectUpload = z.infer<typeof directUploadSchema>;

/** Where one upload goes: `PUT url` with exactly these headers. */
export type UploadTarget = DirectUpload['direct_upload'];

export async function createDirectUpload(
  api: ApiClient,
  blob: FileDeclaration,
): Promise<DirectUpload> {
  const { data } = await api.request('POST', '/api/v1/direct_uploads', {
    body: { blob },
    schema: directUploadSchema,
  });
  return data;
}

/** The checksum a direct upload declares: the base64 SHA-256 of the content. */
export function checksumOf(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('base64');
}

/** The declaration of a file that came with a form post. */
export async function declarationOf(file: File): Promise<FileDeclaration> {
  return {
    filename: file.name,
    content_type: file.type || 'application/octet-stream',
    byte_size: file.size,
    checksum: checksumOf(new Uint8Array(await file.arrayBuffer())),
  };
}

/**
 * The path of an address that the embedded API's storage answers: on the site's own origin, under
 * `/storage/`. Any other address (another API's, a presigned S3 one) is undefined.
 */
export function embeddedStoragePath(address: string, site: string): string | undefined {
  const url = new URL(address);
  if (url.origin !== new URL(site).origin || !url.pathname.startsWith('/storage/')) {
    return undefined;
  }
  return `${url.pathname}${url.search}`;
}

/**
 * How a request reaches a storage address: in-process when the embedded API serves it (the web
 * server would otherwise call itself over the network), over HTTP otherwise.
 */
async function storageRoute(
  address: string,
): Promise<{ transport: ApiTransport; url: URL; inProcess: boolean }> {
  const settings = config();
  const embeddedPath = settings.apiOrigin
    ? undefined
    : embeddedStoragePath(address, siteOrigin(settings));
  if (embeddedPath === undefined) {
    return { transport: (request) => fetch(request), url: new URL(address), inProcess: false };
  }
  const { transport, baseUrl } = await apiEndpoint();
  return { transport, url: new URL(embeddedPath, baseUrl), inProcess: true };
}

/**
 * Sends a file to its upload address with the headers the API gave. A refusal from storage is an
 * `ApiError` with its status and message, like any refusal of the API.
 */
export async function uploadTo(target: UploadTarget, file: Blob): Promise<void> {
  const { transport, url, inProcess } = await storageRoute(target.url);
  const headers = new Headers(target.headers);
  // Over HTTP the length goes on the wire by itself; in-process, storage reads it from here.
  if (inProcess) headers.set('content-length', String(file.size));
  const response = await transport(
    new Request(url, { method: target.method, headers, body: file }),
  );
  if (response.ok) {
    await response.body?.cancel();
    return;
  }
  throw new ApiError(response.status, await refusalMessage(response));
}

async function refusalMessage(response: Response): Promise<string | undefined> {
  try {
    const payload = (await response.json()) as { error?: unknown };
    return typeof payload.error === 'string' && payload.error ? payload.error : undefined;
  } catch {
    return undefined;
  }
}
