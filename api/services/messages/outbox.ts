import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { outboxMessages, type OutboxMessage } from '../../db/schema/index.ts';
import { logger } from '../../../platform/logger.ts';
import { HOUR, MINUTE, SECOND, type Clock } from '../../../platform/clock.ts';
import { redactTokens } from '../tokens.ts';
import { repeatingPass, type RepeatingPass } from '../repeating-pass.ts';

/**
 * The outbox: every email and text is first a row of `outbox_messages`, written in the transaction
 * of the change that causes it, so a message exists exactly when the change happened. A worker then
 * hands due rows to the providers, retrying with back-off while a provider is down, and claims each
 * row before sending so that two servers on one database never send the same message.
 */

/** What an email says: a plain-text part and an HTML part (values in it already escaped). */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

export interface EmailMessage extends EmailContent {
  /** The outbox row, e.g. for a provider's idempotency key. */
  id: number;
  to: string;
}

export interface TextMessage {
  id: number;
  /** A phone number in E.164 form. */
  to: string;
  text: string;
}

/** Hands an email to whatever delivers it. Resolves once the provider has accepted it. */
export interface EmailProvider {
  /** For logs: where emails go, without secrets (e.g. `SMTP smtp.example.com:587`). */
  readonly description: string;
  /**
   * True when "delivering" only keeps the message in the outbox for people to read there (the
   * development providers). Otherwise, once delivered, the tokens in the stored copy are
   * redacted, so that the table holds no usable link.
   */
  readonly keepsMessagesInOutbox?: boolean;
  send(message: EmailMessage): Promise<void>;
  /** Releases connections, if the provider holds any. */
  close?(): Promise<void> | void;
}

/** Hands a text message (SMS) to whatever delivers it. */
export interface TextProvider {
  readonly description: string;
  readonly keepsMessagesInOutbox?: boolean;
  send(message: TextMessage): Promise<void>;
  close?(): Promise<void> | void;
}

/** Writes an email to the outbox. Pass the transaction of the change that causes it. */
export async function enqueueEmail(
  transaction: Database,
  to: string,
  content: EmailContent,
  now: Date,
): Promise<number> {
  const [row] = await transaction
    .insert(outboxMessages)
    .values({
      channel: 'email',
      recipient: to,
      subject: content.subject,
      textBody: content.text,
      htmlBody: content.html,
      createdAt: now,
      nextAttemptAt: now,
    })
    .returning({ id: outboxMessages.id });
  if (!row) throw new Error('Writing an email to the outbox returned no row.');
  return row.id;
}

/** Writes a text message to the outbox. Pass the transaction of the change that causes it. */
export async function enqueueText(
  transaction: Database,
  to: string,
  text: string,
  now: Date,
): Promise<number> {
  const [row] = await transaction
    .insert(outboxMessages)
    .values({ channel: 'sms', recipient: to, textBody: text, createdAt: now, nextAttemptAt: now })
    .returning({ id: outboxMessages.id });
  if (!row) throw new Error('Writing a text message to the outbox returned no row.');
  return row.id;
}

/** The wait after the first failed attempt; it doubles after each further failure. */
const FIRST_RETRY_DELAY_MS = 30 * SECOND;
/** No wait between attempts is longer than this. */
const MAX_RETRY_DELAY_MS = HOUR;
/** After this many failed attempts the message is given up (the row stays, with its error). */
export const MAX_DELIVERY_ATTEMPTS = 10;
/**
 * How long a claimed message belongs to the worker that claimed it. Far longer than a send can
 * take (the SMTP provider gives up after well under a minute), so a message is only claimed again
 * when its worker died mid-send.
 */
const DELIVERY_LEASE_MS = 5 * MINUTE;

/**
 * How long to wait before the next attempt, after `failedAttempts` attempts have failed: 30 s,
 * 1 min, 2 min, … doubling up to 1 hour. About 3 hours pass between the first and the tenth.
 */
export function retryDelayMs(failedAttempts: number): number {
  const doublings = Math.max(0, failedAttempts - 1);
  // 2^7 × 30 s already exceeds an hour; capping the exponent keeps the number finite.
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.min(doublings, 20), MAX_RETRY_DELAY_MS);
}

/**
 * What happens to a message after a failed attempt: retried at a later time, or given up (null)
 * once {@link MAX_DELIVERY_ATTEMPTS} attempts have failed.
 */
export function nextAttemptAfterFailure(failedAttempts: number, now: Date): Date | null {
  if (failedAttempts >= MAX_DELIVERY_ATTEMPTS) return null;
  return new Date(now.getTime() + retryDelayMs(failedAttempts));
}

/** A recipient as logs may show it: `m***@example.com`, `***0123`. */
export function maskRecipient(recipient: string): string {
  const at = recipient.lastIndexOf('@');
  if (at > 0) return `${recipient.slice(0, 1)}***${recipient.slice(at)}`;
  return `***${recipient.slice(-4)}`;
}

/** An error as the outbox keeps and logs it: one line, no stack, bounded. */
function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.replace(/\s+/g, ' ').trim() || 'unknown error';
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

interface OutboxWorkerOptions {
  db: Database;
  clock: Clock;
  email: EmailProvider;
  text: TextProvider;
  /** Pause between passes of a started worker (default 2 s). */
  intervalMs?: number;
  /** Messages claimed and sent together (default 10). */
  batchSize?: number;
  /** Batches per pass at most, so that stopping never waits for a long queue (default 10). */
  maxBatchesPerPass?: number;
}

export interface OutboxWorker extends RepeatingPass {
  /**
   * One pass: claims the messages that are due, hands them to the providers, records the outcome.
   * Resolves to the number of messages delivered.
   */
  deliverDue(): Promise<number>;
}

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, clock } = options;
  const intervalMs = options.intervalMs ?? 2 * SECOND;
  const batchSize = options.batchSize ?? 10;
  const maxBatchesPerPass = options.maxBatchesPerPass ?? 10;

  /**
   * Claims up to `batchSize` due messages in one statement: the inner SELECT locks the rows it
   * picks and skips those another worker is claiming, and the UPDATE moves them out of reach for
   * the lease and counts the attempt. Two workers on one PostgreSQL therefore never get the same
   * row.
   */
  async function claimDue(now: Date): Promise<OutboxMessage[]> {
    const due = db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(lte(outboxMessages.nextAttemptAt, now))
      .orderBy(asc(outboxMessages.nextAttemptAt), asc(outboxMessages.id))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    return db
      .update(outboxMessages)
      .set({
        nextAttemptAt: new Date(now.getTime() + DELIVERY_LEASE_MS),
        attempts: sql`${outboxMessages.attempts} + 1`,
      })
      .where(inArray(outboxMessages.id, due))
      .returning();
  }

  function send(message: OutboxMessage): Promise<void> {
    if (message.channel === 'sms') {
      return options.text.send({ id: message.id, to: message.recipient, text: message.textBody });
    }
    return options.email.send({
      id: message.id,
      to: message.recipient,
      subject: message.subject ?? '',
      text: message.textBody,
      html: message.htmlBody ?? '',
    });
  }

  /** Delivers one claimed message and records the outcome; true when it was delivered. */
  async function deliver(message: OutboxMessage): Promise<boolean> {
    try {
      await send(message);
    } catch (error) {
      const now = clock.now();
      const lastError = describeError(error);
      const nextAttemptAt = nextAttemptAfterFailure(message.attempts, now);
      await db
        .update(outboxMessages)
        .set({ nextAttemptAt, lastError })
        .where(and(eq(outboxMessages.id, message.id), isNull(outboxMessages.sentAt)));
      const outcome = nextAttemptAt
        ? `next attempt at ${nextAttemptAt.toISOString()}`
        : 'giving up; the message stays in the outbox';
      logger.error(
        `Outbox: ${message.channel} #${message.id} to ${maskRecipient(message.recipient)} failed (attempt ${message.attempts} of ${MAX_DELIVERY_ATTEMPTS}), ${outcome}: ${lastError}`,
      );
      return false;
    }
    // Its own statement, after the provider accepted the message: should this fail, the lease
    // runs out and the message is sent again, which is better than never.
    const provider = message.channel === 'sms' ? options.text : options.email;
    const redacted = provider.keepsMessagesInOutbox
      ? {}
      : {
          textBody: redactTokens(message.textBody),
          htmlBody: message.htmlBody === null ? null : redactTokens(message.htmlBody),
        };
    await db
      .update(outboxMessages)
      .set({ sentAt: clock.now(), nextAttemptAt: null, lastError: null, ...redacted })
      .where(eq(outboxMessages.id, message.id));
    return true;
  }

  async function deliverDue(): Promise<number> {
    let delivered = 0;
    for (let batch = 0; batch < maxBatchesPerPass; batch += 1) {
      const claimed = await claimDue(clock.now());
      // Settled, not all: a pass ends only when every send it started has ended.
      const outcomes = await Promise.allSettled(claimed.map(deliver));
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') throw outcome.reason;
        if (outcome.value) delivered += 1;
      }
      if (claimed.length < batchSize) break;
    }
    return delivered;
  }

  return {
    deliverDue,
    ...repeatingPass(
      deliverDue,
      intervalMs,
      (error) => `Outbox: a delivery pass failed: ${describeError(error)}`,
    ),
  };
}
