/**
 * Where members' files live. Browsers send files straight to storage and fetch them back from it
 * through short-lived signed addresses; the API only decides who may do what and keeps the metadata
 * (the `blobs` table). Two drivers implement this: local disk (the default) and any S3-compatible
 * store.
 */
export interface FileStorage {
  /** For the start-up log, e.g. `local disk ./data/storage` or `S3 bucket portal-files`. */
  readonly description: string;
  /**
   * An address the browser sends the whole file to, once, until `expiresAt`. Storage refuses a
   * body of another size, type or checksum than `file` declares.
   */
  createUploadTarget(file: StoredFileDeclaration, expiresAt: Date): Promise<UploadTarget>;
  /**
   * An address that serves the file until `expiresAt`, as a download (`Content-Disposition:
   * attachment` with `filename`), with `X-Content-Type-Options: nosniff` where the store can send
   * it, and with its content type only when a browser cannot run that type (servedContentType),
   * else as `application/octet-stream`.
   */
  createDownloadUrl(file: DownloadableFile, expiresAt: Date): Promise<string>;
  /** The stored file's size, or undefined when storage does not hold it (yet). */
  stat(key: string): Promise<{ byteSize: number } | undefined>;
  /** Stores a file directly (the demo data; server-side copies). */
  write(key: string, content: Uint8Array, contentType: string): Promise<void>;
  /** Removes a file; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
}

/** What an upload must match, as the member declared it when asking for the address. */
export interface StoredFileDeclaration {
  /** Chosen by the server (never from the file name). */
  key: string;
  byteSize: number;
  contentType: string;
  /** Base64 SHA-256 of the content. */
  checksum: string;
}

export interface DownloadableFile {
  key: string;
  /** The member's name for the file, offered to the browser for saving. */
  filename: string;
  /** As declared; the driver serves it through servedContentType. */
  contentType: string;
}

/** Where and how the browser uploads: `PUT url` with exactly these headers. */
export interface UploadTarget {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}
