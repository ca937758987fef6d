import { isIP } from 'node:net';
import { createTransport } from 'nodemailer';
import type { EmailProvider, TextProvider } from './outbox.ts';

/**
 * The providers the outbox worker delivers through (api/services/messages/outbox.ts). Without SMTP_URL,
 * emails and texts stay in the outbox, where a person reads them in the development viewer
 * (GET /api/v1/outbox); with it, emails go out over SMTP.
 */

/** Keeps emails in the outbox: the worker marks them delivered without sending anything. */
export const keepInOutboxEmailProvider: EmailProvider = {
  description: 'kept in the outbox (no SMTP_URL)',
  keepsMessagesInOutbox: true,
  send: () => Promise.resolve(),
};

/** Keeps texts in the outbox: no SMS gateway is configured. */
export const keepInOutboxTextProvider: TextProvider = {
  description: 'kept in the outbox (no SMS provider)',
  keepsMessagesInOutbox: true,
  send: () => Promise.resolve(),
};

interface SmtpEmailProviderOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`. */
  url: string;
  /** The From header, e.g. `Member Concierge <no-reply@portal.example.com>`. */
  from: string;
  /** Give up on a connection, a greeting or a silent socket after this long (default 20 s). */
  timeoutMs?: number;
}

/** Sends emails over SMTP with nodemailer, one connection per message. */
export function createSmtpEmailProvider(options: SmtpEmailProviderOptions): EmailProvider {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const transport = createTransport({
    url: options.url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  const server = new URL(options.url);
  return {
    // Host and port only: the URL's user name and password never reach a log.
    description: `SMTP ${server.host}`,
    async send(message) {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        // The outbox row is sent once; a stable Message-ID lets a receiving side spot a repeat.
        messageId: `<outbox-${message.id}.${server.hostname}@member-portal>`,
      });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * The From address when none is configured: `no-reply@` the public origin's host name, or
 * `no-reply@localhost` when that is an IP address or has no dot.
 */
export function defaultMailFrom(publicOrigin: string): string {
  const { hostname } = new URL(publicOrigin);
  const domain = isIP(hostname.replace(/^\[|\]$/g, '')) === 0 && hostname.includes('.');
  return `Member Concierge <no-reply@${domain ? hostname : 'localhost'}>`;
}
