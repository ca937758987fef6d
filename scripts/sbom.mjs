// Writes the software bill of materials of what the product ships (its production dependencies,
// as package-lock.json pins them) in CycloneDX JSON, with npm's own `npm sbom`, to
// reports/sbom.cdx.json. `--include-dev` lists the development dependencies too.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { namedAfterPackage } from './sbom-component.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const output = path.join(root, 'reports', 'sbom.cdx.json');
const includeDev = process.argv.includes('--include-dev');

const args = ['sbom', '--sbom-format=cyclonedx', '--package-lock-only'];
if (!includeDev) args.push('--omit=dev');
const result = spawnSync('npm', args, {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
});

if (result.error || result.status !== 0) {
  const reason = result.error?.message ?? result.stderr.trim();
  console.error(`npm sbom failed (npm 10.1 or later is needed): ${reason}`);
  process.exit(1);
}

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const sbom = namedAfterPackage(JSON.parse(result.stdout), manifest);
mkdirSync(path.dirname(output), { recursive: true });
writeFileSync(output, `${JSON.stringify(sbom, null, 2)}\n`);
const count = Array.isArray(sbom.components) ? sbom.components.length : 0;
console.log(
  `CycloneDX ${String(sbom.specVersion)} SBOM of ${count} ${includeDev ? '' : 'production '}components: ${path.relative(root, output)}`,
);
