/**
 * The Content-Type a member's file is served with. The declared type is the member's word, and
 * files are served from the portal's own origin, whose pages allow `script-src 'self'`: a file
 * declared `text/javascript` and served as such would run as the portal's own script in `<script
 * src="/storage/files/…">`, a `text/css` one as its style, and an HTML, SVG or XML one opened in a
 * tab would be a page of the portal. So only types a browser can never run, as a script, a style or
 * a document, keep their name; everything else is served as {@link OPAQUE_CONTENT_TYPE}, which no
 * browser runs or renders. The database keeps the declared type: the member still sees what they
 * sent.
 */

/** What a file of any other type is served as: bytes, to be saved. */
export const OPAQUE_CONTENT_TYPE = 'application/octet-stream';

/**
 * Served under their own name, always with `X-Content-Type-Options: nosniff`, under which a
 * browser runs a script only from a JavaScript type and applies a style only from `text/css`:
 *
 * - raster images: only ever decoded to pixels, and refused as a script even without nosniff
 *   (Fetch blocks `image/*`); SVG is not among them, it is a document that runs scripts;
 * - PDF: shown, if at all, by the browser's own viewer, outside the page's script;
 * - plain text and CSV: shown as text, never as markup (CSV is refused as a script even without
 *   nosniff).
 *
 * A type joins only if no browser can run or render it as active content.
 */
const INERT_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'application/pdf',
  'text/plain',
  'text/csv',
]);

/** The type to serve a file declared as `declared` with: itself when inert, else opaque. */
export function servedContentType(declared: string): string {
  const mediaType = declared.split(';')[0]?.trim().toLowerCase() ?? '';
  return INERT_CONTENT_TYPES.has(mediaType) ? mediaType : OPAQUE_CONTENT_TYPE;
}
