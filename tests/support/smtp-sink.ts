import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the sink received it. */
export interface ReceivedEmail {
  /** The Message-ID header, angle brackets included. */
  readonly messageId: string;
  readonly to: readonly string[];
  readonly raw: string;
  /** False when the sink kept the message but dropped the connection instead of saying so. */
  readonly acknowledged: boolean;
}

/** How the sink behaves towards the next connections. */
export type SmtpSinkMode =
  /** Takes every message and says so. */
  | 'accepting'
  /** Nothing listens: connections are refused (the mail server is down). */
  | 'down'
  /** Takes connections and never says a word (the mail server hangs). */
  | 'silent'
  /** Reads each message whole, then drops the connection before acknowledging it. */
  | 'dropping-before-acknowledging';

/**
 * A mail server on loopback for the outbox's SMTP provider, which the test can take down and
 * bring back on the same port, and which records every message it received.
 */
export interface SmtpSink {
  readonly port: number;
  /** `smtp://127.0.0.1:<port>`. */
  readonly url: string;
  readonly received: readonly ReceivedEmail[];
  /** How many times each Message-ID was received. */
  countsByMessageId(): Map<string, number>;
  /** Changes how the sink behaves; connections it holds are dropped. */
  switchTo(mode: SmtpSinkMode): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedEmail[] = [];
  const sockets = new Set<Socket>();
  let mode: SmtpSinkMode = 'accepting';
  let listening: { close(): Promise<void> } | undefined;

  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const smtpServer = (): SMTPServer => {
    const smtp = new SMTPServer({
      logger: false,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const messageId = /^Message-ID:\s*(\S+)\r?$/im.exec(raw)?.[1] ?? '';
          const acknowledged = mode !== 'dropping-before-acknowledging';
          received.push({
            messageId,
            to: session.envelope.rcptTo.map((address) => address.address),
            raw,
            acknowledged,
          });
          if (acknowledged) callback();
          else for (const socket of sockets) socket.destroy();
        });
      },
    });
    smtp.server.on('connection', track);
    return smtp;
  };

  const listen = (server: Server, port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        resolve((server.address() as AddressInfo).port);
      });
    });

  const open = async (port: number): Promise<number> => {
    if (mode === 'down') return port;
    if (mode === 'silent') {
      const silent = createServer(track);
      const bound = await listen(silent, port);
      listening = {
        close: () =>
          new Promise((resolve) => {
            silent.close(() => {
              resolve();
            });
          }),
      };
      return bound;
    }
    const smtp = smtpServer();
    const bound = await listen(smtp.server, port);
    listening = {
      close: () =>
        new Promise((resolve) => {
          smtp.close(() => {
            resolve();
          });
        }),
    };
    return bound;
  };

  const shut = async (): Promise<void> => {
    const closing = listening;
    listening = undefined;
    for (const socket of sockets) socket.destroy();
    await closing?.close();
  };

  const port = await open(0);
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    countsByMessageId: () => {
      const counts = new Map<string, number>();
      for (const { messageId } of received) {
        counts.set(messageId, (counts.get(messageId) ?? 0) + 1);
      }
      return counts;
    },
    switchTo: async (next) => {
      await shut();
      mode = next;
      await open(port);
    },
    close: shut,
  };
}

/** The leaf text parts of a raw MIME message, by content type, decoded. */
export function mimeTextParts(raw: string): Record<string, string> {
  const parts: Record<string, string> = {};
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((match) => match[1]);
  for (const boundary of boundaries) {
    if (!boundary) continue;
    for (const chunk of raw.split(`--${boundary}`)) {
      const separator = chunk.indexOf('\r\n\r\n');
      if (separator < 0) continue;
      const headers = chunk.slice(0, separator).replace(/\r\n\s+/g, ' ');
      const type = /^content-type:\s*(text\/(?:plain|html))/im.exec(headers)?.[1];
      if (!type) continue;
      const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
      const body = chunk.slice(separator + 4);
      parts[type] =
        encoding === 'base64'
          ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
          : encoding === 'quoted-printable'
            ? Buffer.from(
                body
                  .replace(/=\r\n/g, '')
                  .replace(/=([0-9A-F]{2})/gi, (_, hex: string) =>
                    String.fromCharCode(Number.parseInt(hex, 16)),
                  ),
                'latin1',
              ).toString('utf8')
            : body;
    }
  }
  return parts;
}
