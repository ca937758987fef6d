import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOCK_FILE_NAME } from '../../../api/db/data-folder-lock.ts';
import { dataTemplateVariable, startPortalServer } from './portal-server.ts';

/**
 * Playwright's global setup: one server migrates and seeds a DATA_DIR and stops; every fresh
 * server after it (the shared one of playwright.config.ts and those of ./portal-server.ts whose
 * settings leave the data alone) starts from a copy of that folder.
 */
export default async function prepareDataTemplate(): Promise<() => void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'portal-e2e-template-'));
  // A first start migrates and seeds; on two cores busy with other work it has taken over 30 s.
  const server = await startPortalServer({ dataDir: folder, timeoutMs: 180_000 });
  await server.stop();
  // A copy must not look held by the server that made the template, even one killed on the way out.
  rmSync(path.join(folder, 'pglite', LOCK_FILE_NAME), { force: true });
  process.env[dataTemplateVariable] = folder;
  return () => {
    rmSync(folder, { recursive: true, force: true });
  };
}
