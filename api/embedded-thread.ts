import { parentPort, workerData } from 'node:worker_threads';
import { isDataFolderInUse } from './db/data-folder-lock.ts';
import { TrustedProxies, startReferenceApi, type ReferenceApi } from './index.ts';
import { currentRequestContext, withRequestId } from '../platform/logger.ts';
import { createS3Storage } from './services/files/storage/s3-storage.ts';
import {
  bodyToMessage,
  type ApiThreadOptions,
  type FromApiThread,
  type ToApiThread,
} from './embedded-thread-messages.ts';

/**
 * The embedded reference API in a worker thread of the web server's process (started by
 * api/embedded-thread-client.ts): its queries, and PGlite's whole database, run beside the pages
 * being rendered, not between them. Each call comes as a message with its body, and goes back
 * with the answer and the SQL statements it cost.
 */
if (!parentPort) throw new Error('api/embedded-thread.ts runs as a worker thread only.');
const port = parentPort;
const { s3, ...options } = workerData as ApiThreadOptions;

const post = (message: FromApiThread, transfer: Transferable[] = []) => {
  port.postMessage(message, transfer as never[]);
};

let api: ReferenceApi;
try {
  api = await startReferenceApi({
    ...options,
    storage: s3 ? createS3Storage(s3) : undefined,
    // Only the web server in this process calls it, with no socket between them: it is the one
    // proxy in front, and passes on the visitor's address and request id.
    trustedProxies: TrustedProxies.thisProcess,
  });
} catch (error) {
  post({
    type: 'failed',
    message: error instanceof Error ? error.message : String(error),
    dataFolderInUse: isDataFolderInUse(error),
  });
  process.exit(1);
}
const started = api;

async function answer(call: Extract<ToApiThread, { type: 'call' }>): Promise<void> {
  try {
    const init: RequestInit & { duplex: 'half' } = {
      method: call.method,
      headers: call.headers,
      body: call.body,
      // A streamed body (a file on its way to storage) is read as the API reads it.
      duplex: 'half',
    };
    const request = new Request(call.url, init);
    // The call is part of the page's request: its lines carry the page's id, and its statements
    // go back to be counted with the page's.
    const { response, databaseStatements } = await withRequestId(call.requestId, async () => {
      const response = await started.fetch(request);
      return { response, databaseStatements: currentRequestContext()?.databaseStatements ?? 0 };
    });
    const { body, transfer } = await bodyToMessage(response);
    post(
      {
        type: 'answer',
        id: call.id,
        status: response.status,
        headers: [...response.headers],
        body,
        databaseStatements,
      },
      transfer,
    );
  } catch (error) {
    post({
      type: 'fault',
      id: call.id,
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
}

port.on('message', (message: ToApiThread) => {
  if (message.type === 'call') {
    void answer(message);
    return;
  }
  // Closing: the outbox worker finishes its message in flight, then the database closes.
  void started.close().then(
    () => {
      post({ type: 'closed' });
    },
    (error: unknown) => {
      post({ type: 'closed', failure: error instanceof Error ? error.message : String(error) });
    },
  );
});

post({ type: 'ready', demoAccounts: started.demoAccounts });
