import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A text that is the same on every answer but for one value (a page and its form token),
 * compressed once: each answer is gzip made of the fixed parts as compressed ahead of time and
 * the value as stored bytes between them, with the checksum and length gzip ends with.
 *
 * Each fixed part is a raw deflate stream ended with a full flush, so it ends on a byte
 * boundary and never refers back past its own start; the value goes in a stored block
 * (RFC 1951, section 3.2.4); the last part ends the stream. Decompressors read the pieces as one stream.
 */
export class GzipTemplate {
  readonly #parts: readonly Buffer[];
  readonly #compressedParts: readonly Buffer[];

  /** `parts`: the text on either side of each place the value goes (so at least two). */
  constructor(parts: readonly string[]) {
    if (parts.length < 2) throw new Error('A template has the value in at least one place');
    this.#parts = parts.map((part) => Buffer.from(part, 'utf8'));
    this.#compressedParts = this.#parts.map((part, index) =>
      deflateRawSync(part, {
        level: constants.Z_BEST_COMPRESSION,
        finishFlush: index === this.#parts.length - 1 ? constants.Z_FINISH : constants.Z_FULL_FLUSH,
      }),
    );
  }

  /** The text with `value` in each place, gzipped. */
  render(value: string): Buffer {
    const valueBytes = Buffer.from(value, 'utf8');
    if (valueBytes.length > 0xffff) throw new Error('The value is too long for a stored block');
    const stored = storedBlock(valueBytes);
    const pieces: Buffer[] = [gzipHeader];
    let checksum = 0;
    let length = 0;
    this.#parts.forEach((part, index) => {
      if (index > 0) {
        pieces.push(stored);
        checksum = crc32(valueBytes, checksum);
        length += valueBytes.length;
      }
      pieces.push(this.#compressedParts[index] ?? Buffer.alloc(0));
      checksum = crc32(part, checksum);
      length += part.length;
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(checksum >>> 0, 0);
    trailer.writeUInt32LE(length >>> 0, 4);
    pieces.push(trailer);
    return Buffer.concat(pieces);
  }
}

/** Deflate, no name, no time, "unknown" system (RFC 1952, section 2.3). */
const gzipHeader = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);

/** A stored block that is not the last, starting on a byte boundary. */
function storedBlock(bytes: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(0x00, 0);
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([header, bytes]);
}
