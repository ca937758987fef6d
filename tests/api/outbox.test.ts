// @module-tag database
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { outboxMessages, users } from '../../api/db/schema/index.ts';
import { openReferenceApi } from '../../api/index.ts';
import { logger } from '../../platform/logger.ts';
import { freePort, listenOnFreePort } from '../../scripts/free-port.mjs';
import { createMovableClock, HOUR, MINUTE, SECOND } from '../../platform/clock.ts';
import { mimeTextParts } from '../support/smtp-sink.ts';
import {
  createSmtpEmailProvider,
  keepInOutboxEmailProvider,
  keepInOutboxTextProvider,
} from '../../api/services/messages/mail-providers.ts';
import {
  createOutboxWorker,
  enqueueEmail,
  enqueueText,
  MAX_DELIVERY_ATTEMPTS,
  retryDelayMs,
  type EmailMessage,
  type EmailProvider,
  type TextMessage,
} from '../../api/services/messages/outbox.ts';
import {
  createFreshDatabase,
  startTestApi,
  TEST_PUBLIC_ORIGIN,
  tokenFromLink,
  uniqueEmail,
  type TestApi,
} from './support.ts';

/** A provider that records what it was given, and can be told to fail or to take its time. */
function recordingProvider(options: { failures?: number; delayMs?: number } = {}) {
  let failuresLeft = options.failures ?? 0;
  const sent: EmailMessage[] = [];
  const texts: TextMessage[] = [];
  const provider: EmailProvider & { sent: EmailMessage[] } = {
    description: 'recording',
    sent,
    async send(message) {
      if (options.delayMs) await sleep(options.delayMs);
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('421 Service not available, closing transmission channel');
      }
      sent.push(message);
    },
  };
  const textProvider = {
    description: 'recording texts',
    texts,
    send: (message: TextMessage) => {
      texts.push(message);
      return Promise.resolve();
    },
  };
  return { provider, textProvider, sent, texts };
}

const CONTENT = { subject: 'Hello', text: 'Plain words.', html: '<p>Plain words.</p>' };

async function outboxRow(api: TestApi, id: number) {
  const [row] = await api.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
  if (!row) throw new Error(`Outbox message ${id} is gone.`);
  return row;
}

describe('writing to the outbox', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api.close();
  });

  it('writes the email in the transaction of the change, so that a failed change sends nothing', async () => {
    const recipient = uniqueEmail();
    const taken = await api.createUser();

    await expect(
      api.db.transaction(async (transaction) => {
        await enqueueEmail(transaction, recipient, CONTENT, api.clock.now());
        // The change fails after the email was written: a duplicate email address.
        await transaction.insert(users).values({
          email: taken.email,
          passwordHash: 'x',
          name: 'Dup',
          lastName: 'Licate',
        });
      }),
    ).rejects.toThrow();

    expect(await api.mailTo(recipient)).toHaveLength(0);
  });

  it('has the message in the outbox as soon as the change is committed, before any delivery', async () => {
    const account = await api.createUser();

    await api.requestPasswordReset(account.email);

    const [email] = await api.mailTo(account.email);
    expect(email).toMatchObject({
      channel: 'email',
      attempts: 0,
      sentAt: null,
      nextAttemptAt: api.clock.now(),
    });
  });

  it('keeps texts without a subject or an HTML part', async () => {
    const id = await api.db.transaction((transaction) =>
      enqueueText(transaction, '+15555550123', 'Your code is 123456', api.clock.now()),
    );

    expect(await outboxRow(api, id)).toMatchObject({
      channel: 'sms',
      recipient: '+15555550123',
      subject: null,
      htmlBody: null,
      textBody: 'Your code is 123456',
    });
  });
});

describe('the outbox worker', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api.close();
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('marks messages delivered when they are only kept in the outbox (no SMTP_URL)', async () => {
    const worker = createOutboxWorker({
      db: api.db,
      clock: api.clock,
      email: keepInOutboxEmailProvider,
      text: keepInOutboxTextProvider,
    });
    const id = await enqueueEmail(api.db, uniqueEmail(), CONTENT, api.clock.now());

    expect(await worker.deliverDue()).toBeGreaterThanOrEqual(1);

    expect(await outboxRow(api, id)).toMatchObject({
      attempts: 1,
      sentAt: api.clock.now(),
      nextAttemptAt: null,
      lastError: null,
      textBody: CONTENT.text,
      htmlBody: CONTENT.html,
    });
  });

  it('keeps the links of messages kept in the outbox, for people to follow there', async () => {
    const worker = createOutboxWorker({
      db: api.db,
      clock: api.clock,
      email: keepInOutboxEmailProvider,
      text: keepInOutboxTextProvider,
    });
    const account = await api.createUser();
    await api.requestPasswordReset(account.email);

    await worker.deliverDue();

    const [email] = await api.mailTo(account.email);
    expect(email?.sentAt).not.toBeNull();
    expect(tokenFromLink(email?.textBody ?? '', 'reset-password')).toHaveLength(43);
  });

  it('hands texts to the text provider and emails to the email provider', async () => {
    const { provider, textProvider, sent, texts } = recordingProvider();
    const worker = createOutboxWorker({
      db: api.db,
      clock: api.clock,
      email: provider,
      text: textProvider,
    });
    const emailTo = uniqueEmail();
    const textId = await enqueueText(api.db, '+15555550199', 'Code 654321', api.clock.now());
    await enqueueEmail(api.db, emailTo, CONTENT, api.clock.now());

    await worker.deliverDue();

    expect(texts).toEqual([{ id: textId, to: '+15555550199', text: 'Code 654321' }]);
    expect(sent.map((message) => message.to)).toEqual([emailTo]);
  });

  it('retries with a doubling back-off, logs each failure on one masked line, and sends once', async () => {
    const loggedError = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const { provider, textProvider, sent } = recordingProvider({ failures: 2 });
    const worker = createOutboxWorker({
      db: api.db,
      clock: api.clock,
      email: provider,
      text: textProvider,
    });
    const recipient = uniqueEmail();
    const id = await enqueueEmail(api.db, recipient, CONTENT, api.clock.now());

    expect(await worker.deliverDue()).toBe(0);
    let row = await outboxRow(api, id);
    expect(row).toMatchObject({ attempts: 1, sentAt: null });
    expect(row.lastError).toContain('421');
    expect(row.nextAttemptAt).toEqual(new Date(api.clock.now().getTime() + 30 * SECOND));

    api.clock.advanceBy(30 * SECOND - 1);
    expect(await worker.deliverDue()).toBe(0);
    expect((await outboxRow(api, id)).attempts).toBe(1);

    api.clock.advanceBy(1);
    await worker.deliverDue();
    row = await outboxRow(api, id);
    expect(row).toMatchObject({ attempts: 2, sentAt: null });
    expect(row.nextAttemptAt).toEqual(new Date(api.clock.now().getTime() + MINUTE));

    api.clock.advanceBy(MINUTE);
    expect(await worker.deliverDue()).toBe(1);
    expect(await outboxRow(api, id)).toMatchObject({
      attempts: 3,
      sentAt: api.clock.now(),
      nextAttemptAt: null,
      lastError: null,
    });

    api.clock.advanceBy(HOUR);
    expect(await worker.deliverDue()).toBe(0);
    expect(sent.filter((message) => message.id === id)).toHaveLength(1);

    expect(loggedError).toHaveBeenCalledTimes(2);
    expect(loggedError.mock.calls[0]).toHaveLength(1);
    const line = String(loggedError.mock.calls[0]?.[0]);
    expect(line).toContain(`email #${id} to m***@example.com failed (attempt 1 of 10)`);
    expect(line).not.toContain(recipient);
    expect(line).not.toMatch(/\n/);
  });

  it('gives up after 10 failed attempts and keeps the message with its error', async () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const failing: EmailProvider = {
      description: 'always down',
      send: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25')),
    };
    const worker = createOutboxWorker({
      db: api.db,
      clock: api.clock,
      email: failing,
      text: keepInOutboxTextProvider,
    });
    const id = await enqueueEmail(api.db, uniqueEmail(), CONTENT, api.clock.now());

    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt += 1) {
      await worker.deliverDue();
      expect((await outboxRow(api, id)).attempts).toBe(attempt);
      api.clock.advanceBy(retryDelayMs(attempt));
    }
    api.clock.advanceBy(24 * HOUR);
    await worker.deliverDue();

    expect(await outboxRow(api, id)).toMatchObject({
      attempts: MAX_DELIVERY_ATTEMPTS,
      sentAt: null,
      nextAttemptAt: null,
      lastError: 'connect ECONNREFUSED 127.0.0.1:25',
    });
  });

  it('never sends a message twice when two workers run at the same moment', async () => {
    const { provider, textProvider, sent } = recordingProvider({ delayMs: 2 });
    const workers = [1, 2].map(() =>
      createOutboxWorker({
        db: api.db,
        clock: api.clock,
        email: provider,
        text: textProvider,
        batchSize: 3,
      }),
    );
    // Whatever earlier tests left due is delivered first, so that only these messages count.
    await workers[0]?.deliverDue();
    sent.length = 0;
    const ids: number[] = [];
    for (let index = 0; index < 40; index += 1) {
      ids.push(await enqueueEmail(api.db, uniqueEmail(), CONTENT, api.clock.now()));
    }

    const delivered = await Promise.all(
      [...workers, ...workers].map((worker) => worker.deliverDue()),
    );

    expect(delivered.reduce((total, count) => total + count, 0)).toBe(40);
    expect(sent.map((message) => message.id).sort((a, b) => a - b)).toEqual(ids);
  });

  it('finishes the pass in flight before stop() resolves', async () => {
    const { provider, textProvider, sent } = recordingProvider({ delayMs: 200 });
    const worker = createOutboxWorker({
      db: api.db,
      clock: api.clock,
      email: provider,
      text: textProvider,
      intervalMs: 10,
    });
    await createOutboxWorker({
      db: api.db,
      clock: api.clock,
      email: keepInOutboxEmailProvider,
      text: keepInOutboxTextProvider,
    }).deliverDue();
    const id = await enqueueEmail(api.db, uniqueEmail(), CONTENT, api.clock.now());

    worker.start();
    await vi.waitFor(
      async () => {
        expect((await outboxRow(api, id)).attempts).toBe(1);
      },
      { timeout: 5000, interval: 5 },
    );
    await worker.stop();

    expect(sent.map((message) => message.id)).toEqual([id]);
    expect((await outboxRow(api, id)).sentAt).not.toBeNull();
  });
});

describe('delivery over SMTP (SMTP_URL)', () => {
  let api: TestApi;
  let smtp: SMTPServer;
  let port: number;
  let rejectNext = 0;
  const received: { from: string; to: string[]; raw: string; user: unknown }[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    smtp = new SMTPServer({
      logger: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === 'outbox' && auth.password === 'secret') {
          callback(null, { user: auth.username });
        } else {
          callback(new Error('Invalid username or password'));
        }
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (rejectNext > 0) {
            rejectNext -= 1;
            const error: Error & { responseCode?: number } = new Error('Try again later');
            error.responseCode = 451;
            callback(error);
            return;
          }
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((address) => address.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            user: session.user,
          });
          callback();
        });
      },
    });
    // The SMTP server repeats its socket's errors, a port found taken among them: heard here.
    const quiet = () => undefined;
    smtp.on('error', quiet);
    port = await listenOnFreePort(smtp.server);
    smtp.off('error', quiet);
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      smtp.close(resolve);
    });
    await api.close();
  });

  it('sends the reset email with a text and an HTML part after the server refused the first attempt', async () => {
    const loggedError = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      const worker = createOutboxWorker({
        db: api.db,
        clock: api.clock,
        email: createSmtpEmailProvider({
          url: `smtp://outbox:secret@127.0.0.1:${port}`,
          from: 'Member Concierge <no-reply@portal.example.test>',
        }),
        text: keepInOutboxTextProvider,
      });
      const account = await api.createUser({ name: 'Robin' });
      await api.requestPasswordReset(account.email);
      const [queued] = await api.mailTo(account.email);
      const token = tokenFromLink(queued?.textBody ?? '', 'reset-password');
      rejectNext = 1;

      expect(await worker.deliverDue()).toBe(0);
      expect(received).toHaveLength(0);
      const failure = (await api.mailTo(account.email))[0];
      expect(failure).toMatchObject({ attempts: 1, sentAt: null });
      expect(failure?.lastError).toContain('451');
      const logged = loggedError.mock.calls.map((call) => call.map(String).join(' ')).join('\n');
      expect(logged).toContain(`to ${account.email.slice(0, 1)}***@example.com failed`);
      expect(logged).not.toContain(token);
      expect(logged).not.toContain(account.email);
      expect(logged).not.toContain('secret');

      api.clock.advanceBy(30 * SECOND);
      expect(await worker.deliverDue()).toBe(1);
      const deliveredAt = api.clock.now();
      api.clock.advanceBy(HOUR);
      expect(await worker.deliverDue()).toBe(0);

      expect(received).toHaveLength(1);
      const [message] = received;
      expect(message?.from).toBe('no-reply@portal.example.test');
      expect(message?.to).toEqual([account.email]);
      expect(message?.user).toBe('outbox');
      expect(message?.raw).toMatch(/^Subject: Reset your Member Concierge password\r$/m);
      const parts = mimeTextParts(message?.raw ?? '');
      const link = `${TEST_PUBLIC_ORIGIN}/reset-password/${token}`;
      expect(parts['text/plain']).toContain(link);
      expect(parts['text/plain']).toContain('Hello,');
      expect(parts['text/html']).toContain(`<a href="${link}">`);
      const [stored] = await api.mailTo(account.email);
      expect(stored?.sentAt).toEqual(deliveredAt);
      // Once the email has left, the stored copy keeps no usable link.
      expect(stored?.textBody).toContain(`${TEST_PUBLIC_ORIGIN}/reset-password/[redacted]`);
      expect(`${stored?.textBody ?? ''}${stored?.htmlBody ?? ''}`).not.toContain(token);
    } finally {
      loggedError.mockRestore();
    }
  });

  it('retries when the server cannot be reached at all', async () => {
    const loggedError = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      // A port that was free a moment ago: nothing listens, the connection is refused at once.
      const closedPort = await freePort();
      const unreachable = createOutboxWorker({
        db: api.db,
        clock: api.clock,
        email: createSmtpEmailProvider({
          url: `smtp://127.0.0.1:${closedPort}`,
          from: 'a@example.com',
        }),
        text: keepInOutboxTextProvider,
      });
      const recipient = uniqueEmail();
      const id = await enqueueEmail(api.db, recipient, CONTENT, api.clock.now());

      expect(await unreachable.deliverDue()).toBe(0);

      expect(await outboxRow(api, id)).toMatchObject({ attempts: 1, sentAt: null });
      expect((await outboxRow(api, id)).lastError).toMatch(/ECONNREFUSED|connect/i);
      expect(loggedError).toHaveBeenCalledTimes(1);
    } finally {
      loggedError.mockRestore();
    }
  });
});

describe('GET /api/v1/outbox', () => {
  it('answers 404 "Not found." unless the viewer is enabled', async () => {
    const api = await startTestApi();
    try {
      const response = await api.app.request('/api/v1/outbox');

      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'Not found.' });
    } finally {
      await api.close();
    }
  });

  it('lists every email and text, newest first, when enabled', async () => {
    const api = await startTestApi({ outboxViewer: true });
    try {
      const account = await api.createUser();
      await api.requestPasswordReset(account.email);
      api.clock.advanceBy(MINUTE);
      const textId = await enqueueText(api.db, '+15555550123', 'Code 123456', api.clock.now());
      await createOutboxWorker({
        db: api.db,
        clock: api.clock,
        email: keepInOutboxEmailProvider,
        text: keepInOutboxTextProvider,
      }).deliverDue();

      const response = await api.app.request('/api/v1/outbox');

      expect(response.status).toBe(200);
      const { messages } = (await response.json()) as { messages: Record<string, unknown>[] };
      expect(messages).toHaveLength(2);
      expect(messages[0]).toEqual({
        id: textId,
        channel: 'sms',
        recipient: '+15555550123',
        subject: null,
        text_body: 'Code 123456',
        created_at: api.clock.now().toISOString(),
        sent_at: api.clock.now().toISOString(),
      });
      expect(messages[1]).toMatchObject({
        channel: 'email',
        recipient: account.email,
        subject: 'Reset your Member Concierge password',
        created_at: new Date(api.clock.now().getTime() - MINUTE).toISOString(),
      });
      expect(messages[1]?.['text_body']).toContain(`${TEST_PUBLIC_ORIGIN}/reset-password/`);
    } finally {
      await api.close();
    }
  });

  it('keeps only one recipient’s messages with ?recipient=', async () => {
    const api = await startTestApi({ outboxViewer: true });
    try {
      const first = await api.createUser();
      const second = await api.createUser();
      await api.requestPasswordReset(first.email);
      await api.requestPasswordReset(second.email);

      const response = await api.app.request(
        `/api/v1/outbox?recipient=${encodeURIComponent(second.email.toUpperCase())}`,
      );

      const { messages } = (await response.json()) as { messages: { recipient: string }[] };
      expect(messages.map((message) => message.recipient)).toEqual([second.email]);
    } finally {
      await api.close();
    }
  });
});

// Each test opens a fresh database with the demo data, whose accounts' passwords are hashed one by
// one: 20 s beside the other passes of npm test.
describe('openReferenceApi and the outbox worker', { timeout: 60_000 }, () => {
  it('delivers in the background by default, and close() stops the worker first', async () => {
    const fresh = await createFreshDatabase();
    const { provider, sent } = recordingProvider();
    const api = await openReferenceApi({
      ...fresh.options,
      clock: createMovableClock(),
      publicOrigin: 'https://portal.example.com/',
      emailProvider: provider,
      seedDemoData: true,
    });
    try {
      const response = await api.fetch(
        new Request('http://embedded-api.internal/api/v1/users/password', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ user: { email: 'member@example.com' } }),
        }),
      );
      expect(response.status).toBe(200);

      await vi.waitFor(
        () => {
          expect(sent).toHaveLength(1);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(sent[0]?.text).toContain('https://portal.example.com/reset-password/');
    } finally {
      await api.close();
      await fresh.dispose();
    }
  });

  it('leaves delivery to the caller with deliverOutbox: false', async () => {
    const fresh = await createFreshDatabase();
    const { provider, sent } = recordingProvider();
    const api = await openReferenceApi({
      ...fresh.options,
      clock: createMovableClock(),
      emailProvider: provider,
      deliverOutbox: false,
      seedDemoData: true,
    });
    try {
      await api.fetch(
        new Request('http://embedded-api.internal/api/v1/users/password', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ user: { email: 'member@example.com' } }),
        }),
      );
      await sleep(2500);
      expect(sent).toHaveLength(0);

      expect(await api.outbox.deliverDue()).toBe(1);
      expect(sent[0]?.text).toContain('http://localhost:4321/reset-password/');
    } finally {
      await api.close();
      await fresh.dispose();
    }
  });

  it('refuses a public origin that is not an http or https origin', async () => {
    await expect(
      openReferenceApi({ dataDir: 'memory://', publicOrigin: 'portal' }),
    ).rejects.toThrow(/publicOrigin must be an http or https origin/);
  });
});
