// The build's static files (dist/client): listed once at start, so that a request for a page is
// told apart from a file by a lookup in memory, with no file-system check on its path; the hashed
// scripts and stylesheets served from their precompressed copies (see scripts/precompress.mjs).
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where Astro writes the files the browser loads, relative to the project. */
export const clientDirectory = 'dist/client';
/** Where Astro writes the hashed assets, relative to the project. */
export const hashedAssetsDirectory = `${clientDirectory}/_astro`;

/** What gets a compressed copy: text. Images and fonts are compressed by their own formats. */
export const precompressedExtensions = new Map([
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
]);

/** The types of the other files a build can hold; anything else is sent as bytes. */
const contentTypes = new Map([
  ...precompressedExtensions,
  ['.txt', 'text/plain; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.ico', 'image/x-icon'],
  ['.webp', 'image/webp'],
  ['.avif', 'image/avif'],
  ['.woff2', 'font/woff2'],
  ['.json', 'application/json; charset=utf-8'],
  ['.webmanifest', 'application/manifest+json'],
]);
const compressedCopies = new Set(['.br', '.gz']);

/**
 * Every file under `directory`, by the path a browser asks for it with (`/robots.txt`,
 * `/_astro/x.js`); the compressed copies are not files of their own but variants of theirs.
 */
export function listStaticFiles(directory) {
  const files = new Map();
  if (!existsSync(directory)) return files;
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const extension = path.extname(entry.name);
    if (compressedCopies.has(extension)) continue;
    // Dot-files (a stray .DS_Store) are never served.
    const urlPath = `/${path.relative(directory, file).split(path.sep).join('/')}`;
    if (urlPath.split('/').some((part) => part.startsWith('.'))) continue;
    const { size, mtimeMs } = statSync(file);
    const hashed = urlPath.startsWith('/_astro/');
    const precompressed = hashed && precompressedExtensions.has(extension);
    files.set(urlPath, {
      file,
      size,
      type: contentTypes.get(extension) ?? 'application/octet-stream',
      // The name of a hashed file changes whenever its content does.
      cacheControl: hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=0',
      etag: `W/"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`,
      lastModified: new Date(mtimeMs).toUTCString(),
      br: precompressed ? compressedCopy(`${file}.br`) : undefined,
      gzip: precompressed ? compressedCopy(`${file}.gz`) : undefined,
    });
  }
  return files;
}

function compressedCopy(file) {
  return existsSync(file) ? { file, size: statSync(file).size } : undefined;
}

/**
 * A server for the build's static files, from the names found at start: a request's path is only
 * ever compared with those names, never turned into a file path. Answers `false` for anything it
 * does not serve (every page), so that the caller hands it on.
 */
export function staticFiles(root) {
  const files = listStaticFiles(path.resolve(root, clientDirectory));

  return function serveStatic(request, response) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const known = files.get(queryAt === -1 ? url : url.slice(0, queryAt));
    if (!known) return false;

    const headers = {
      'content-type': known.type,
      'cache-control': known.cacheControl,
      etag: known.etag,
      'last-modified': known.lastModified,
      'x-content-type-options': 'nosniff',
    };
    let file = known.file;
    let size = known.size;
    if (known.br || known.gzip) {
      headers.vary = 'Accept-Encoding';
      const accepted = String(request.headers['accept-encoding'] ?? '');
      const [encoding, copy] =
        /\bbr\b/.test(accepted) && known.br
          ? ['br', known.br]
          : /\bgzip\b/.test(accepted) && known.gzip
            ? ['gzip', known.gzip]
            : [];
      if (copy) {
        ({ file, size } = copy);
        headers['content-encoding'] = encoding;
        // Each encoding is a representation of its own, with its own validator.
        headers.etag = `${known.etag.slice(0, -1)}-${encoding}"`;
      }
    }
    if (request.headers['if-none-match'] === headers.etag) {
      response.writeHead(304, headers);
      response.end();
      return true;
    }
    response.writeHead(200, { ...headers, 'content-length': size });
    if (request.method === 'HEAD') {
      response.end();
      return true;
    }
    createReadStream(file).pipe(response);
    return true;
  };
}
