import type { DemoAccount, ReferenceApiOptions } from './index.ts';
import type { S3Settings } from '../platform/s3-settings.ts';

/**
 * What the web server and the embedded API's worker thread say to each other
 * (api/embedded-thread-client.ts, api/embedded-thread.ts). Everything in a message is copied or
 * moved between threads, so it holds plain data, byte buffers and streams only.
 */

/** The API's options as a thread can be given them: settings, no objects with behaviour. */
export type ApiThreadOptions = Pick<
  ReferenceApiOptions,
  | 'databaseUrl'
  | 'dataDir'
  | 'seedDemoData'
  | 'demoCompanySignIn'
  | 'publicOrigin'
  | 'outboxViewer'
  | 'smtpUrl'
  | 'mailFrom'
  | 'storageDir'
  | 'storageSecret'
  | 'factorSecretKey'
> & {
  /** Files go to S3 with these settings; the thread makes its own client. */
  readonly s3?: S3Settings | undefined;
};

/**
 * A body: none, its bytes (moved, not copied), or a stream the other thread reads as it arrives
 * (a file up or down, which may be larger than is worth holding whole).
 */
type MessageBody = null | ArrayBuffer | ReadableStream<Uint8Array>;

export type ToApiThread =
  | {
      readonly type: 'call';
      readonly id: number;
      readonly requestId: string;
      readonly method: string;
      readonly url: string;
      readonly headers: [string, string][];
      readonly body: MessageBody;
    }
  | { readonly type: 'close' };

export type FromApiThread =
  | { readonly type: 'ready'; readonly demoAccounts: DemoAccount[] }
  | { readonly type: 'failed'; readonly message: string; readonly dataFolderInUse: boolean }
  | {
      readonly type: 'answer';
      readonly id: number;
      readonly status: number;
      readonly headers: [string, string][];
      readonly body: MessageBody;
      /** The SQL statements the call cost, counted with the page's (platform/logger.ts). */
      readonly databaseStatements: number;
    }
  | { readonly type: 'fault'; readonly id: number; readonly message: string }
  | { readonly type: 'closed'; readonly failure?: string };

/** Bodies up to this size go across whole; larger or unknown ones as a stream. */
export const wholeBodyLimitBytes = 256 * 1024;

/**
 * Whether a body is small enough to send whole: by its declared length, or, for the API's own
 * answers, by being JSON. A request's content type is never taken for it: a file on its way to
 * storage arrives with whatever type its sender wrote, and must stream as the API reads it.
 */
function isSmall(message: Request | Response): boolean {
  const length = Number(message.headers.get('content-length') ?? Number.NaN);
  if (Number.isInteger(length) && length <= wholeBodyLimitBytes) return true;
  return message instanceof Response && /\bjson\b/u.test(message.headers.get('content-type') ?? '');
}

/**
 * A request's or answer's body as a message carries it, with what to move rather than copy:
 * small ones as their bytes, the others as their stream (files up and down).
 */
export async function bodyToMessage(
  message: Request | Response,
): Promise<{ body: MessageBody; transfer: Transferable[] }> {
  if (message.body === null) return { body: null, transfer: [] };
  if (isSmall(message)) {
    const bytes = await message.arrayBuffer();
    return { body: bytes, transfer: [bytes] };
  }
  return { body: message.body, transfer: [message.body] };
}
