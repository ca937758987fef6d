// Hashed build assets served from their precompressed copies (see scripts/precompress.mjs).
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where Astro writes the hashed assets, relative to the project. */
export const hashedAssetsDirectory = 'dist/client/_astro';

/** What gets a compressed copy: text. Images and fonts are compressed by their own formats. */
export const precompressedExtensions = new Map([
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
]);

/**
 * A server for the precompressed copies of the hashed assets, from the names found in the build:
 * a request's path is only ever compared with those names, never turned into a file path.
 * Answers `false` for anything it does not serve, so that the caller hands it on.
 */
export function precompressedAssets(root) {
  const directory = path.resolve(root, hashedAssetsDirectory);
  const known = new Map();
  if (existsSync(directory)) {
    for (const name of readdirSync(directory)) {
      const type = precompressedExtensions.get(path.extname(name));
      if (type && existsSync(path.join(directory, `${name}.br`))) known.set(name, type);
    }
  }

  return function servePrecompressed(request, response) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const match = /^\/_astro\/([\w.-]+)$/.exec((request.url ?? '').split('?')[0] ?? '');
    const name = match?.[1];
    const type = name && known.get(name);
    if (!type) return false;
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : '';
    if (!encoding) return false;
    const file = path.join(directory, `${name}${encoding === 'br' ? '.br' : '.gz'}`);
    response.writeHead(200, {
      'content-length': statSync(file).size,
      'content-type': type,
      'content-encoding': encoding,
      vary: 'Accept-Encoding',
      // The name changes whenever the content does.
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
    if (request.method === 'HEAD') {
      response.end();
      return true;
    }
    createReadStream(file).pipe(response);
    return true;
  };
}
