// Serves the production build for the browser tests on a database of its own,
// made fresh for every run (in a new temporary folder, so that two runs side by
// side never share one), and removed when the server stops. With
// PORTAL_DATA_TEMPLATE (tests/e2e/support/data-template.ts), the folder starts as
// a copy of that migrated and seeded one.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
const template = process.env.PORTAL_DATA_TEMPLATE;
delete process.env.PORTAL_DATA_TEMPLATE;
if (template) cpSync(template, dataDir, { recursive: true });
process.env.DATA_DIR = dataDir;
process.on('exit', () => {
  rmSync(dataDir, { recursive: true, force: true });
});
await import('./start.mjs');
