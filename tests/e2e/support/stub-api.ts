import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnFreePort } from '../../../scripts/free-port.mjs';

/** A stand-in for the API on loopback, for servers started with `API_ORIGIN` pointing at it. */
export interface StubApi {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** `METHOD /path` of every request received so far, with its `X-Request-Id`. */
  readonly received: { readonly call: string; readonly requestId: string | undefined }[];
  /** Stops answering: closes the server and every connection the portal keeps open to it. */
  close(): Promise<void>;
}

/** How the stub answers one request; answer nothing to keep the caller waiting. */
export type StubAnswer = (request: IncomingMessage, response: ServerResponse) => void;

/** Ready (`/readyz`), and 401 to the current user without credentials, like the reference API. */
export const answersLikeTheContract: StubAnswer = (request, response) => {
  if (request.method === 'GET' && request.url === '/readyz') {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('ok\n');
    return;
  }
  if (request.method === 'GET' && request.url === '/api/v1/users/current') {
    json(response, 401, { error: 'Your session expired. Please sign in again.' });
    return;
  }
  json(response, 404, { error: 'Not found' });
};

export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export async function startStubApi(answer: StubAnswer = answersLikeTheContract): Promise<StubApi> {
  const received: { call: string; requestId: string | undefined }[] = [];
  const server: Server = createServer((request, response) => {
    const requestId = request.headers['x-request-id'];
    received.push({
      call: `${request.method ?? ''} ${request.url ?? ''}`,
      requestId: typeof requestId === 'string' ? requestId : undefined,
    });
    answer(request, response);
  });
  const port = await listenOnFreePort(server);
  let closing: Promise<void> | undefined;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        // The portal keeps connections alive; the API is gone only once they are closed too.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
