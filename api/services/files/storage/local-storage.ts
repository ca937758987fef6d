import { CHECKSUM_HEADER } from '../../../../contract/headers.ts';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Clock } from '../../../../platform/clock.ts';
import type {
  DownloadableFile,
  FileStorage,
  StoredFileDeclaration,
  UploadTarget,
} from './file-storage.ts';
import {
  signAddress,
  verifyAddress,
  type DownloadClaims,
  type UploadClaims,
  type VerifiedAddress,
} from './signed-addresses.ts';

/** Where the local driver's addresses live on the site's origin. */
export const STORAGE_PATH = '/storage';
const UPLOADS_PATH = `${STORAGE_PATH}/uploads`;
const FILES_PATH = `${STORAGE_PATH}/files`;

export const DEFAULT_STORAGE_DIR = './data/storage';

/**
 * Keys are chosen by the server, but the driver still refuses anything that could leave its
 * directory: segments of letters, digits, `_` and `-`, separated by `/`.
 */
const KEY_PATTERN = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;
const MAX_KEY_LENGTH = 200;

/** Where unfinished uploads are written; a key segment cannot start with a dot. */
const INCOMING_DIRECTORY = '.incoming';

interface LocalFileStorageOptions {
  /** The directory the files live in, outside any web root. Created when missing. */
  directory: string;
  /**
   * Signs the addresses. Every server that shares the directory must have the same secret, or
   * an address one of them gives out is refused by the others.
   */
  secret: Uint8Array;
  /** The site's origin: addresses start with it (the web server forwards `/storage/*`). */
  publicOrigin: string;
  clock: Clock;
}

export type UploadRefusal = 'too_large' | 'too_small' | 'checksum_mismatch';

/** An upload written to a temporary file that matched its declaration. */
interface ReceivedUpload {
  received: true;
  /** Puts the file at its key (replacing nothing: a key is uploaded once). */
  moveIntoPlace(): Promise<void>;
  /** Removes the temporary file. */
  discard(): Promise<void>;
}

type ReceiveResult = ReceivedUpload | { received: false; reason: UploadRefusal };

interface OpenedFile {
  byteSize: number;
  content: ReadableStream<Uint8Array>;
}

/**
 * The default {@link FileStorage}: files in a directory on this machine, uploaded and downloaded
 * through the API's own `/storage/…` routes (api/routes/storage.ts) at signed, expiring
 * addresses. Uploads are streamed to a temporary file and moved into place only once their size
 * and checksum match what was declared.
 */
export class LocalFileStorage implements FileStorage {
  readonly description: string;
  readonly directory: string;
  readonly publicOrigin: string;
  readonly #secret: Uint8Array;
  readonly #clock: Clock;

  constructor(options: LocalFileStorageOptions) {
    this.directory = path.resolve(options.directory);
    this.publicOrigin = options.publicOrigin;
    this.#secret = options.secret;
    this.#clock = options.clock;
    this.description = `local disk ${this.directory}`;
  }

  createUploadTarget(file: StoredFileDeclaration, expiresAt: Date): Promise<UploadTarget> {
    this.#pathOf(file.key);
    const token = signAddress(this.#secret, { purpose: 'upload', ...file, expiresAt });
    return Promise.resolve({
      url: `${this.publicOrigin}${UPLOADS_PATH}/${token}`,
      method: 'PUT',
      headers: { 'Content-Type': file.contentType, [CHECKSUM_HEADER]: file.checksum },
    });
  }

  createDownloadUrl(file: DownloadableFile, expiresAt: Date): Promise<string> {
    this.#pathOf(file.key);
    const token = signAddress(this.#secret, { purpose: 'download', ...file, expiresAt });
    return Promise.resolve(`${this.publicOrigin}${FILES_PATH}/${token}`);
  }

  async stat(key: string): Promise<{ byteSize: number } | undefined> {
    try {
      const stats = await stat(this.#pathOf(key));
      return stats.isFile() ? { byteSize: stats.size } : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** The content type is not kept: download addresses carry it, from the database. */
  async write(key: string, content: Uint8Array): Promise<void> {
    const target = this.#pathOf(key);
    const temporary = await this.#temporaryPath();
    try {
      const handle = await open(temporary, 'wx');
      try {
        await handle.writeFile(content);
      } finally {
        await handle.close();
      }
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#pathOf(key), { force: true });
  }

  /** The claims of an upload address, if this storage signed it and it has not expired. */
  verifyUploadAddress(token: string): VerifiedAddress<UploadClaims> {
    return verifyAddress(this.#secret, token, 'upload', this.#clock.now());
  }

  /** The claims of a download address, if this storage signed it and it has not expired. */
  verifyDownloadAddress(token: string): VerifiedAddress<DownloadClaims> {
    return verifyAddress(this.#secret, token, 'download', this.#clock.now());
  }

  /**
   * Streams `body` to a temporary file, counting and hashing it. Reading stops at the first byte
   * past the declared size (`too_large`); a shorter body is `too_small`, another content
   * `checksum_mismatch`. Only a match is kept, for the caller to move into place.
   */
  async receive(
    declaration: StoredFileDeclaration,
    body: ReadableStream<Uint8Array> | null,
  ): Promise<ReceiveResult> {
    const target = this.#pathOf(declaration.key);
    const temporary = await this.#temporaryPath();
    const discard = () => rm(temporary, { force: true });
    const hash = createHash('sha256');
    let byteCount = 0;
    const handle = await open(temporary, 'wx');
    try {
      if (body) {
        const reader = body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          byteCount += value.byteLength;
          if (byteCount > declaration.byteSize) {
            await reader.cancel();
            await handle.close();
            await discard();
            return { received: false, reason: 'too_large' };
          }
          hash.update(value);
          await handle.write(value);
        }
      }
      await handle.close();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await discard();
      throw error;
    }
    if (byteCount < declaration.byteSize) {
      await discard();
      return { received: false, reason: 'too_small' };
    }
    if (hash.digest('base64') !== declaration.checksum) {
      await discard();
      return { received: false, reason: 'checksum_mismatch' };
    }
    return {
      received: true,
      discard,
      moveIntoPlace: async () => {
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temporary, target);
      },
    };
  }

  /** The stored file as a stream, or undefined when there is none at `key`. */
  async openFile(key: string): Promise<OpenedFile | undefined> {
    const filePath = this.#pathOf(key);
    try {
      const stats = await stat(filePath);
      if (!stats.isFile()) return undefined;
      const content = Readable.toWeb(createReadStream(filePath)) as ReadableStream<Uint8Array>;
      return { byteSize: stats.size, content };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  #pathOf(key: string): string {
    if (key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) {
      throw new Error(`Not a storage key: ${JSON.stringify(key.slice(0, 50))}.`);
    }
    return path.join(this.directory, ...key.split('/'));
  }

  async #temporaryPath(): Promise<string> {
    const incoming = path.join(this.directory, INCOMING_DIRECTORY);
    await mkdir(incoming, { recursive: true });
    return path.join(incoming, randomUUID());
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** A secret for a single process, when none is configured: its addresses die with it. */
export function randomStorageSecret(): Uint8Array {
  return randomBytes(32);
}
