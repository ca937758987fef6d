import { Worker } from 'node:worker_threads';
import type { ReferenceApi } from './index.ts';
import { currentRequestContext, logger, newRequestId } from '../platform/logger.ts';
import {
  bodyToMessage,
  type ApiThreadOptions,
  type FromApiThread,
  type ToApiThread,
} from './embedded-thread-messages.ts';

/** Why the embedded API's thread could not start; `dataFolderInUse` as api/db/data-folder-lock.ts. */
class ApiThreadStartError extends Error {
  override name = 'ApiThreadStartError';
  /** The same mark as DataFolderInUseError's, so that `isDataFolderInUse` knows it. */
  readonly code: string | undefined;

  constructor(message: string, dataFolderInUse: boolean) {
    super(message);
    this.code = dataFolderInUse ? 'DATA_FOLDER_IN_USE' : undefined;
  }
}

/**
 * The entry the production server (scripts/start.mjs) names for the embedded API's thread; kept
 * on the global object, since that script and the server build each load their own copy of this
 * module. Unset (`astro dev`, tests), the embedded API runs in the calling thread.
 */
const sharedByEveryCopy = globalThis as unknown as Record<symbol, URL | undefined>;
const threadEntryKey = Symbol.for('member-portal.api-thread-entry');

/** Runs the embedded API in a worker thread from `entry` (api/embedded-thread.ts). */
export function runEmbeddedApiInThread(entry: URL): void {
  sharedByEveryCopy[threadEntryKey] = entry;
}

/** The worker thread's entry, when the embedded API is to run in one. */
export function embeddedApiThreadEntry(): URL | undefined {
  return sharedByEveryCopy[threadEntryKey];
}

interface PendingCall {
  resolve(response: Response): void;
  reject(error: Error): void;
  /** The page's request, which counts the statements the call cost. */
  context: ReturnType<typeof currentRequestContext>;
}

/**
 * Starts the reference API in a worker thread (`entry`: api/embedded-thread.ts) and answers once
 * it is ready, with the same {@link ReferenceApi} as `startReferenceApi`: `fetch` sends each call
 * to the thread and resolves with its answer. The web server's thread only renders; the API's
 * queries, and PGlite's whole database, run on the other core.
 *
 * Should the thread stop unasked, the calls waiting are answered with an error and every later
 * call fails at once: the process cannot serve members without its API, and says so in the log.
 */
export async function startReferenceApiInThread(
  entry: URL,
  options: ApiThreadOptions,
): Promise<ReferenceApi> {
  const worker = new Worker(entry, { workerData: options });
  const pending = new Map<number, PendingCall>();
  let nextId = 1;
  let isReady = false;
  let stopped: Error | undefined;
  let closing: ((failure?: string) => void) | undefined;

  const send = (message: ToApiThread, transfer: Transferable[] = []) => {
    worker.postMessage(message, transfer as never[]);
  };

  const ready = new Promise<FromApiThread & { type: 'ready' }>((resolve, reject) => {
    worker.on('message', (message: FromApiThread) => {
      switch (message.type) {
        case 'ready':
          isReady = true;
          resolve(message);
          return;
        case 'failed':
          reject(new ApiThreadStartError(message.message, message.dataFolderInUse));
          return;
        case 'answer': {
          const call = pending.get(message.id);
          if (!call) return;
          pending.delete(message.id);
          if (call.context) call.context.databaseStatements += message.databaseStatements;
          call.resolve(
            new Response(message.body, { status: message.status, headers: message.headers }),
          );
          return;
        }
        case 'fault': {
          const call = pending.get(message.id);
          pending.delete(message.id);
          call?.reject(new Error(`The embedded API failed: ${message.message}`));
          return;
        }
        case 'closed':
          closing?.(message.failure);
      }
    });
    worker.once('error', (error: unknown) => {
      stopped = error instanceof Error ? error : new Error(String(error));
      reject(stopped);
    });
    worker.once('exit', (code) => {
      stopped ??= new Error(`The embedded API's thread stopped (exit code ${code}).`);
      reject(stopped);
      if (isReady && !closing) logger.fatal({ err: stopped }, 'the embedded API stopped');
      for (const call of pending.values()) call.reject(stopped);
      pending.clear();
    });
  });
  const { demoAccounts } = await ready;

  return {
    demoAccounts,
    async fetch(request) {
      if (stopped) throw stopped;
      const context = currentRequestContext();
      const { body, transfer } = await bodyToMessage(request);
      const id = nextId++;
      const answered = new Promise<Response>((resolve, reject) => {
        pending.set(id, { resolve, reject, context });
      });
      send(
        {
          type: 'call',
          id,
          requestId: context?.requestId ?? newRequestId(),
          method: request.method,
          url: request.url,
          headers: [...request.headers],
          body,
        },
        transfer,
      );
      return answered;
    },
    async close() {
      if (stopped) return;
      const failure = await new Promise<string | undefined>((resolve) => {
        closing = resolve;
        send({ type: 'close' });
      });
      await worker.terminate();
      if (failure) throw new Error(`The embedded API did not close cleanly: ${failure}`);
    },
  };
}
