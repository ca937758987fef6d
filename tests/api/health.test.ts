// @module-tag database
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../api/db/client.ts';
import { logger } from '../../platform/logger.ts';
import { createHealthRoutes } from '../../api/routes/health.ts';
import { startTestApi, type TestApi } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

/** A database whose every query ends the way `answer` says. */
function databaseAnswering(answer: () => Promise<unknown>): Database {
  return { execute: answer } as unknown as Database;
}

describe('health probes', () => {
  it('/healthz answers ok, never cached, without asking the database', async () => {
    const execute = vi.fn(() => Promise.reject(new Error('unreachable')));
    const response = await createHealthRoutes({
      db: databaseAnswering(execute),
    }).request('/healthz');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok\n');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(execute).not.toHaveBeenCalled();
  });

  it('/readyz answers ok while the database answers', async () => {
    const response = await api.app.request('/readyz');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok\n');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('/readyz answers unavailable when the database refuses, and logs why', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      const app = createHealthRoutes({
        db: databaseAnswering(() =>
          Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
        ),
      });
      const response = await app.request('/readyz');
      expect(response.status).toBe(503);
      expect(await response.text()).toBe('unavailable\n');
      expect(warn).toHaveBeenCalledWith(
        { err: new Error('connect ECONNREFUSED 127.0.0.1:5432') },
        'readiness: the database did not answer',
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('/readyz answers unavailable within about 2 s when the database does not answer', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      const app = createHealthRoutes({ db: databaseAnswering(() => new Promise(() => undefined)) });
      const startedAt = Date.now();
      const response = await app.request('/readyz');
      expect(response.status).toBe(503);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_900);
      expect(Date.now() - startedAt).toBeLessThan(3_000);
    } finally {
      warn.mockRestore();
    }
  });
});
