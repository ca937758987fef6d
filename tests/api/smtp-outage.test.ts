// @module-tag database
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { outboxMessages } from '../../api/db/schema/index.ts';
import { logger } from '../../platform/logger.ts';
import { HOUR, SECOND } from '../../platform/clock.ts';
import {
  createSmtpEmailProvider,
  keepInOutboxEmailProvider,
  keepInOutboxTextProvider,
} from '../../api/services/messages/mail-providers.ts';
import {
  createOutboxWorker,
  retryDelayMs,
  type OutboxWorker,
} from '../../api/services/messages/outbox.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { startTestApi, type TestApi } from './support.ts';

/**
 * The mail server failing (docs/OPERATIONS.md, "When something fails"): emails wait in the
 * outbox, and each goes out once the server is back; none is lost, none is sent twice. The sink
 * is a real SMTP server on loopback that the test takes down and brings back on the same port.
 */

/** Short, so that a mail server that hangs costs the test little; production's is 20 s. */
const smtpTimeoutMs = 500;

describe('the outbox while the mail server fails', () => {
  let api: TestApi;
  let sink: SmtpSink;
  let worker: OutboxWorker;

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(async () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    sink = await startSmtpSink();
    worker = createOutboxWorker({
      db: api.db,
      clock: api.clock,
      email: createSmtpEmailProvider({
        url: sink.url,
        from: 'Member Concierge <no-reply@portal.example.test>',
        timeoutMs: smtpTimeoutMs,
      }),
      text: keepInOutboxTextProvider,
    });
    // Whatever an earlier test left due is settled first, so that only this test's emails count.
    api.clock.advanceBy(24 * HOUR);
    await createOutboxWorker({
      db: api.db,
      clock: api.clock,
      email: keepInOutboxEmailProvider,
      text: keepInOutboxTextProvider,
    }).deliverDue();
  });
  afterEach(async () => {
    await sink.close();
    vi.restoreAllMocks();
  });

  /** Password resets for new members: each writes one email to the outbox. */
  async function resetEmailsFor(count: number): Promise<{ id: number; to: string }[]> {
    const emails: { id: number; to: string }[] = [];
    for (let index = 0; index < count; index += 1) {
      const { email } = await api.createUser();
      await api.requestPasswordReset(email);
      const [row] = await api.mailTo(email);
      if (!row) throw new Error(`No reset email for ${email}`);
      emails.push({ id: row.id, to: email });
    }
    return emails;
  }

  async function rowsOf(emails: { id: number }[]) {
    return Promise.all(
      emails.map(async ({ id }) => {
        const [row] = await api.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
        if (!row) throw new Error(`Outbox message ${id} is gone.`);
        return row;
      }),
    );
  }

  /** Passes of the worker over a long stretch of time, as the background worker would make. */
  async function manyLaterPasses(): Promise<number> {
    let delivered = 0;
    for (let pass = 0; pass < 5; pass += 1) {
      api.clock.advanceBy(HOUR);
      delivered += await worker.deliverDue();
    }
    return delivered;
  }

  function expectEachSentOnce(emails: { id: number; to: string }[]): void {
    const counts = sink.countsByMessageId();
    for (const { id, to } of emails) {
      const messageId = `<outbox-${id}.127.0.0.1@member-portal>`;
      expect(counts.get(messageId), messageId).toBe(1);
      expect(sink.received.find((each) => each.messageId === messageId)?.to).toEqual([to]);
    }
    expect(sink.received).toHaveLength(emails.length);
  }

  it('keeps emails in the outbox while the mail server refuses connections, and sends each once when it is back', async () => {
    await sink.switchTo('down');
    const emails = await resetEmailsFor(3);

    expect(await worker.deliverDue()).toBe(0);
    api.clock.advanceBy(retryDelayMs(1));
    expect(await worker.deliverDue()).toBe(0);
    for (const row of await rowsOf(emails)) {
      expect(row).toMatchObject({ attempts: 2, sentAt: null });
      expect(row.lastError).toMatch(/ECONNREFUSED/);
    }

    await sink.switchTo('accepting');
    // Not before the back-off says: the next attempt is a minute after the second.
    api.clock.advanceBy(retryDelayMs(2) - SECOND);
    expect(await worker.deliverDue()).toBe(0);
    expect(sink.received).toHaveLength(0);
    api.clock.advanceBy(SECOND);
    expect(await worker.deliverDue()).toBe(3);

    expect(await manyLaterPasses()).toBe(0);
    expectEachSentOnce(emails);
    for (const row of await rowsOf(emails)) {
      expect(row).toMatchObject({ attempts: 3, lastError: null, nextAttemptAt: null });
      expect(row.sentAt).not.toBeNull();
    }
  });

  it('gives up on a mail server that takes the connection and says nothing, holds no pass up, and sends each email once when it answers', async () => {
    await sink.switchTo('silent');
    const emails = await resetEmailsFor(2);

    const startedAt = Date.now();
    expect(await worker.deliverDue()).toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(smtpTimeoutMs * 4);
    for (const row of await rowsOf(emails)) {
      expect(row).toMatchObject({ attempts: 1, sentAt: null });
      // The greeting and socket timers are equal: whichever fires first names the failure.
      expect(row.lastError).toMatch(/^(Greeting never received|Timeout)$/);
    }

    await sink.switchTo('accepting');
    api.clock.advanceBy(retryDelayMs(1));
    expect(await worker.deliverDue()).toBe(2);
    expect(await manyLaterPasses()).toBe(0);
    expectEachSentOnce(emails);
  });

  it('keeps the emails a pass had not reached when the mail server goes down mid-pass, and sends every email once', async () => {
    const emails = await resetEmailsFor(4);
    const smtp = createSmtpEmailProvider({
      url: sink.url,
      from: 'Member Concierge <no-reply@portal.example.test>',
      timeoutMs: smtpTimeoutMs,
    });
    const failingWorker = createOutboxWorker({
      db: api.db,
      clock: api.clock,
      // The server goes down right after taking the second email.
      email: {
        description: 'SMTP, going down after two emails',
        send: async (message) => {
          if (sink.received.length >= 2) await sink.switchTo('down');
          await smtp.send(message);
        },
      },
      text: keepInOutboxTextProvider,
      batchSize: 1,
    });

    expect(await failingWorker.deliverDue()).toBe(2);
    const waiting = (await rowsOf(emails)).filter((row) => row.sentAt === null);
    expect(waiting).toHaveLength(2);

    await sink.switchTo('accepting');
    api.clock.advanceBy(retryDelayMs(1));
    expect(await worker.deliverDue()).toBe(2);
    expect(await manyLaterPasses()).toBe(0);
    expectEachSentOnce(emails);
  });

  it('sends again, under the same Message-ID, an email the server took but never acknowledged', async () => {
    // SMTP cannot tell "lost before" from "lost after the server kept it": the outbox sends again
    // rather than lose the email, and the stable Message-ID lets the receiving side spot it.
    await sink.switchTo('dropping-before-acknowledging');
    const [email] = await resetEmailsFor(1);

    expect(await worker.deliverDue()).toBe(0);
    await sink.switchTo('accepting');
    api.clock.advanceBy(retryDelayMs(1));
    expect(await worker.deliverDue()).toBe(1);
    expect(await manyLaterPasses()).toBe(0);

    const messageId = `<outbox-${email?.id ?? 0}.127.0.0.1@member-portal>`;
    expect(sink.received.map((each) => [each.messageId, each.acknowledged])).toEqual([
      [messageId, false],
      [messageId, true],
    ]);
  });
});
