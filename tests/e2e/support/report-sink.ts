import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { listenOnFreePort } from '../../../scripts/free-port.mjs';

/**
 * A stand-in for the error-reporting service on loopback: the DSN points at it, and it keeps
 * every envelope it receives (the SDKs' unit of sending: a header line, then items, each a header
 * line and a payload).
 */
export interface ReportSink {
  /** The DSN to give the server (`SENTRY_DSN`). */
  readonly dsn: string;
  readonly origin: string;
  /** Every envelope received so far, as text. */
  readonly envelopes: string[];
  /** Every item received so far, by type, its payload parsed when it is JSON. */
  items(type?: string): ReportedItem[];
  close(): Promise<void>;
}

export interface ReportedItem {
  readonly type: string;
  readonly payload: string;
  readonly json: Record<string, unknown> | undefined;
}

/** Splits an envelope into its items, honouring each item's declared length. */
export function envelopeItems(envelope: Buffer): ReportedItem[] {
  const items: ReportedItem[] = [];
  let offset = envelope.indexOf(0x0a) + 1; // after the envelope's own header
  while (offset > 0 && offset < envelope.length) {
    const headerEnd = envelope.indexOf(0x0a, offset);
    if (headerEnd === -1) break;
    const header = JSON.parse(envelope.subarray(offset, headerEnd).toString('utf8')) as {
      type: string;
      length?: number;
    };
    const start = headerEnd + 1;
    let end = header.length === undefined ? envelope.indexOf(0x0a, start) : start + header.length;
    if (end === -1) end = envelope.length;
    const payload = envelope.subarray(start, end).toString('utf8');
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(payload) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    items.push({ type: header.type, payload, json });
    offset = end + 1;
  }
  return items;
}

export async function startReportSink(): Promise<ReportSink> {
  const envelopes: string[] = [];
  const items: ReportedItem[] = [];
  const server: Server = createServer((request, response) => {
    // Browsers send envelopes across origins: allow it, as the real service does.
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', '*');
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      envelopes.push(body.toString('utf8'));
      items.push(...envelopeItems(body));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await listenOnFreePort(server);
  const origin = `http://127.0.0.1:${port}`;
  return {
    dsn: `http://e2epublickey@127.0.0.1:${port}/1`,
    origin,
    envelopes,
    items: (type) => (type === undefined ? [...items] : items.filter((item) => item.type === type)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
