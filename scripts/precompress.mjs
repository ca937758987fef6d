// Runs after `astro build`: writes a brotli (quality 11) and a gzip (level 9) copy beside every
// hashed script and stylesheet, so that scripts/start.mjs serves them without compressing on
// each request, and smaller than on-the-fly compression could afford to make them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { hashedAssetsDirectory, precompressedExtensions } from './static-files.mjs';

const directory = path.resolve(hashedAssetsDirectory);
let count = 0;
for (const name of readdirSync(directory)) {
  if (!precompressedExtensions.has(path.extname(name))) continue;
  const file = path.join(directory, name);
  const content = readFileSync(file);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
  );
  writeFileSync(`${file}.gz`, gzipSync(content, { level: constants.Z_BEST_COMPRESSION }));
  count += 1;
}
console.log(`Precompressed ${count} scripts and stylesheets (brotli and gzip).`);
