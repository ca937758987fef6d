import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type Clock, systemClock } from '../../../../platform/clock.ts';
import { attachmentContentDisposition } from './content-disposition.ts';
import type {
  DownloadableFile,
  FileStorage,
  StoredFileDeclaration,
  UploadTarget,
} from './file-storage.ts';
import type { S3Settings } from '../../../../platform/s3-settings.ts';
import { servedContentType } from './served-content-type.ts';

/** The longest life S3 allows a presigned address (SigV4: one week). */
const LONGEST_ADDRESS_LIFE_SECONDS = 7 * 24 * 60 * 60;

/**
 * Files in an S3 bucket or an S3-compatible store. Uploads and downloads go through presigned
 * addresses; the signature of an upload covers its Content-Type, Content-Length and
 * `x-amz-checksum-sha256`, so S3 refuses any other body.
 *
 * The bucket needs a CORS rule allowing PUT and GET from the site's origin with the headers
 * `content-type` and `x-amz-checksum-sha256`. S3 cannot add `X-Content-Type-Options: nosniff`
 * to its answers; downloads are served as attachments, which browsers never render, from the
 * bucket's origin, not the portal's, and a download address asks for the declared type only when
 * no browser can run it (served-content-type.ts), else for `application/octet-stream`.
 *
 * `clock` dates the signatures, so that an address lives until the `expiresAt` the API computed
 * with the same clock.
 */
export function createS3Storage(settings: S3Settings, clock: Clock = systemClock): FileStorage {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    ...(settings.credentials === undefined ? {} : { credentials: settings.credentials }),
    // The SDK's default CRC32 checksums would add headers the browser does not send and that
    // several S3-compatible stores refuse; the upload carries its own SHA-256 instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const bucket = settings.bucket;

  // SigV4 dates in whole seconds: counting from the truncated date, the address never outlives
  // `expiresAt` and falls short of it by less than a second.
  const signingWindow = (expiresAt: Date) => {
    const signingDate = new Date(Math.floor(clock.now().getTime() / 1000) * 1000);
    const expiresIn = Math.floor((expiresAt.getTime() - signingDate.getTime()) / 1000);
    if (expiresIn < 1 || expiresIn > LONGEST_ADDRESS_LIFE_SECONDS) {
      throw new RangeError(
        `A presigned S3 address must expire between 1 second and 7 days from now, not at ${expiresAt.toISOString()}.`,
      );
    }
    return { signingDate, expiresIn };
  };

  return {
    description: `S3 bucket ${bucket}${settings.endpoint === undefined ? '' : ` at ${settings.endpoint}`}`,

    async createUploadTarget(file: StoredFileDeclaration, expiresAt: Date): Promise<UploadTarget> {
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: file.key,
        ContentType: file.contentType,
        ContentLength: file.byteSize,
        ChecksumSHA256: file.checksum,
      });
      const url = await getSignedUrl(client, command, {
        ...signingWindow(expiresAt),
        signableHeaders: new Set(['content-type', 'content-length', 'x-amz-checksum-sha256']),
        // Left in the query string, the checksum would not have to match what the browser sends.
        unhoistableHeaders: new Set(['x-amz-checksum-sha256']),
      });
      // The browser sets Content-Length from the body itself (scripts may not); it is signed all
      // the same.
      return {
        url,
        method: 'PUT',
        headers: { 'Content-Type': file.contentType, 'x-amz-checksum-sha256': file.checksum },
      };
    },

    async createDownloadUrl(file: DownloadableFile, expiresAt: Date): Promise<string> {
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: file.key,
        ResponseContentDisposition: attachmentContentDisposition(file.filename),
        ResponseContentType: servedContentType(file.contentType),
      });
      return getSignedUrl(client, command, signingWindow(expiresAt));
    },

    async stat(key: string) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        if (head.ContentLength === undefined) {
          throw new Error(`S3 described ${key} without its size (no Content-Length).`);
        }
        return { byteSize: head.ContentLength };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async write(key: string, content: Uint8Array, contentType: string) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: content, ContentType: contentType }),
      );
    },

    async delete(key: string) {
      // S3 answers 204 whether or not the key exists.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NotFound' ||
      error.name === 'NoSuchKey' ||
      error.$metadata.httpStatusCode === 404)
  );
}
