// Serves the production build for the browser tests on a database of its own,
// made fresh for every run so that tests never see a previous run's state.
import { rmSync } from 'node:fs';

const dataDir = process.env.DATA_DIR ?? 'reports/e2e-data';
rmSync(dataDir, { recursive: true, force: true });
await import('./start.mjs');
