import { expect } from '@playwright/test';
import { startPortalServer, type PortalServer } from './portal-server';
import { createTestDatabase, requireTestPostgres } from './postgres';

/** The production server on a PostgreSQL database of its own, logging each request's statements. */
export interface StatementCountingPortal {
  readonly server: PortalServer;
  /** The address of its database, for a test that writes there as another writer would. */
  readonly databaseUrl: string;
  /** Stops the server and drops its database. */
  stop(): Promise<void>;
}

/**
 * Starts the production server on a new database (`<prefix>_<random>`) of TEST_DATABASE_URL's
 * PostgreSQL, with LOG_LEVEL=info, so that {@link statementsOf} can count what a request sent.
 */
export async function startStatementCountingPortal(
  prefix: string,
  /** Settings of the server besides its database and log level. */
  settings: Record<string, string> = {},
): Promise<StatementCountingPortal> {
  requireTestPostgres();
  const database = await createTestDatabase(process.env.TEST_DATABASE_URL ?? '', prefix);
  const server = await startPortalServer({
    env: { ...settings, DATABASE_URL: database.url, LOG_LEVEL: 'info' },
  });
  return {
    server,
    databaseUrl: database.url,
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}

interface RequestLine {
  requestId?: string;
  msg?: string;
  databaseStatements?: number;
}

/**
 * How many SQL statements the server sent for the request that got `response`, from its log line
 * (the server must run with LOG_LEVEL=info; the embedded API counts them, api/db/client.ts).
 */
export async function statementsOf(server: PortalServer, response: Response): Promise<number> {
  const requestId = response.headers.get('x-request-id');
  // The line is written once the answer is done, a moment after the client has read it.
  const line = await expect
    .poll(() => requestLineOf(server, requestId), {
      message: `the log line of request ${requestId ?? '(no id)'}`,
    })
    .toBeDefined()
    .then(() => requestLineOf(server, requestId));
  return line?.databaseStatements ?? 0;
}

function requestLineOf(server: PortalServer, requestId: string | null): RequestLine | undefined {
  for (const text of server.output().split('\n')) {
    if (!text.startsWith('{')) continue;
    const line = JSON.parse(text) as RequestLine;
    if (line.msg === 'request' && line.requestId === requestId) return line;
  }
  return undefined;
}
