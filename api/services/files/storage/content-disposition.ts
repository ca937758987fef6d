/**
 * `Content-Disposition: attachment` for any file name a member gave (RFC 6266): a plain-ASCII
 * `filename` for old clients, with every character that could end or bend the header replaced,
 * and the exact name in `filename*` (RFC 8187, UTF-8 percent-encoded).
 */
export function attachmentContentDisposition(filename: string): string {
  const replaced = filename.replace(/[^\x20-\x7e]|["\\/%;]/g, '_').trim();
  const asciiFallback = /[A-Za-z0-9]/.test(replaced) ? replaced : 'download';
  return `attachment; filename="${asciiFallback}"; filename*=UTF-8''${encodeRfc8187(filename)}`;
}

/** Percent-encodes all but RFC 8187's attr-chars (encodeURIComponent leaves `'()*` as they are). */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value.toWellFormed()).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
