import { percentOf } from '../ProgressBar/progress-value';
import { DEFAULT_UPLOAD_METHOD } from './upload-rules';

/** Why an upload did not succeed. */
type UploadFailureKind = 'refused' | 'status' | 'network' | 'abort';

/** An upload that did not succeed, with what is known of it. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  readonly kind: UploadFailureKind;
  readonly fileName: string;
  readonly status: number;
  readonly statusText: string;
  readonly responseText: string;

  constructor(
    kind: UploadFailureKind,
    message: string,
    details: {
      fileName?: string;
      status?: number;
      statusText?: string;
      responseText?: string;
    } = {},
  ) {
    super(message);
    this.kind = kind;
    this.fileName = details.fileName ?? '';
    this.status = details.status ?? 0;
    this.statusText = details.statusText ?? '';
    this.responseText = details.responseText ?? '';
  }
}

/** A direct upload to a storage address. */
interface UploadRequest {
  file: File;
  /** The caller-supplied direct upload address. */
  url: string;
  /** `PUT` by default. */
  method?: string | undefined;
  /** Extra headers the storage expects (e.g. those of a signed direct upload). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Whole percent of the file sent so far. */
  onProgress?: ((percent: number) => void) | undefined;
}

/** An upload under way. */
export interface UploadHandle {
  /** Settles with the answer's status when it is a 2xx, rejects with an {@link UploadError}. */
  done: Promise<number>;
  abort: () => void;
}

/** What a network failure logs: where to look. */
export function networkFailureHint(fileName: string): string {
  return (
    `Upload of "${fileName}" failed with a network error. Check your connection, ` +
    `the storage bucket's cross-origin (CORS) settings, and that the upload address is valid.`
  );
}

/** The headers sent: the file's content type (or application/octet-stream), then the caller's. */
export function uploadHeaders(
  file: Pick<File, 'type'>,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': file.type || 'application/octet-stream',
  };
  for (const [name, value] of Object.entries(extra)) {
    // Header names are case-insensitive, and a second setRequestHeader would append, not replace.
    for (const existing of Object.keys(headers)) {
      if (existing.toLowerCase() === name.toLowerCase()) Reflect.deleteProperty(headers, existing);
    }
    headers[name] = value;
  }
  return headers;
}

/**
 * Sends the raw file with XMLHttpRequest, which (unlike fetch) reports upload progress. No
 * credentials are sent and no timeout is set (request timeout 0); only the status of the answer is
 * read, and its text only to explain a failure.
 */
export function startUpload(
  request: UploadRequest,
  createRequest: () => XMLHttpRequest = () => new XMLHttpRequest(),
): UploadHandle {
  const { file, url, method = DEFAULT_UPLOAD_METHOD, headers, onProgress } = request;
  const xhr = createRequest();
  const done = new Promise<number>((resolve, reject) => {
    xhr.open(method, url, true);
    xhr.withCredentials = false;
    xhr.timeout = 0;
    for (const [name, value] of Object.entries(uploadHeaders(file, headers))) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.(percentOf(event.loaded, event.total));
    });
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(100);
        resolve(xhr.status);
        return;
      }
      const responseText =
        xhr.responseType === '' || xhr.responseType === 'text' ? xhr.responseText : '';
      reject(
        new UploadError(
          'status',
          `Upload of "${file.name}" failed: ${xhr.status} ${xhr.statusText} ${responseText}`.trim(),
          { fileName: file.name, status: xhr.status, statusText: xhr.statusText, responseText },
        ),
      );
    });
    xhr.addEventListener('error', () => {
      reject(new UploadError('network', networkFailureHint(file.name), { fileName: file.name }));
    });
    xhr.addEventListener('abort', () => {
      reject(
        new UploadError('abort', `Upload of "${file.name}" was aborted.`, { fileName: file.name }),
      );
    });
    xhr.send(file);
  });
  return {
    done,
    abort: () => {
      xhr.abort();
    },
  };
}

/**
 * Logs a failed upload: an abort is only logged (as a warning); a network error logs where to look;
 * a refused upload or an unsuccessful status logs the error.
 */
export function logUploadFailure(error: UploadError): void {
  if (error.kind === 'abort') console.warn(error.message);
  else console.error(error);
}
