import {
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type ChangeEvent,
  type DragEvent,
  type Ref,
} from 'react';
import '../tokens-kit.css';
import { Button } from '../Button/Button';
import { Icon } from '../Icon/Icon';
import { checkShape, closeShape, fileShape } from '../Icon/shapes';
import { Message } from '../Message/Message';
import { ProgressBar } from '../ProgressBar/ProgressBar';
import styles from './FileUploader.module.css';
import { formatSize } from './format-size';
import { UploadError, logUploadFailure, startUpload, type UploadHandle } from './upload-file';
import { DEFAULT_UPLOAD_METHOD, fileTooLargeMessage, isTooLarge } from './upload-rules';
import { MAX_FILE_BYTES } from '../../../contract/limits.ts';

/** The drop zone's icon (only the uploader draws it). */
const UPLOAD_SHAPE =
  'M19.4 10a7.5 7.5 0 0 0-14-2A6 6 0 0 0 6 20h13a5 5 0 0 0 .4-10ZM14 13v4h-4v-4H7l5-5 5 5h-3Z';

/** Where a chosen file stands. */
type FileUploadStatus = 'pending' | 'uploading' | 'uploaded' | 'failed';

/** What a parent can ask of a {@link FileUploader} through its `ref`. */
export interface FileUploaderHandle {
  /**
   * Uploads the chosen file. Refused (logged, and rejected with an UploadError of kind
   * `refused`) unless there is exactly one file and an upload address. Rejects with the
   * UploadError of a failed transfer, after `onUploadError`.
   */
  upload: () => Promise<void>;
  /** Stops an upload under way (logged only). */
  abort: () => void;
  /** Drops the chosen file, stopping its upload. */
  clear: () => void;
}

/** Props of {@link FileUploader}. */
export interface FileUploaderProps {
  /** Visible name of the uploader, e.g. "Attachment". */
  label: string;
  /** The caller-supplied direct upload address. */
  uploadUrl?: string | undefined;
  /** `PUT` by default. */
  method?: string | undefined;
  /** Headers the storage expects, e.g. those of a signed direct upload. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Largest size accepted, in bytes; 25 MB (26214400) by default. */
  maxSize?: number | undefined;
  /** Starts the upload as soon as a file is chosen. */
  autoUpload?: boolean | undefined;
  /** Shown when a transfer fails; the details go to the console and `onUploadError`. */
  uploadFailedMessage?: string | undefined;
  /** A file was chosen (or dropped), or the choice was removed (`null`). */
  onFileChange?: ((file: File | null) => void) | undefined;
  onUploadStart?: ((file: File) => void) | undefined;
  onUploadProgress?: ((percent: number, file: File) => void) | undefined;
  onUploaded?: ((file: File, status: number) => void) | undefined;
  /** The upload-error event: a network error, or an answer other than 2xx. */
  onUploadError?: ((error: UploadError) => void) | undefined;
  ref?: Ref<FileUploaderHandle> | undefined;
}

interface SelectedFile {
  file: File;
  previewUrl: string | undefined;
  status: FileUploadStatus;
  progress: number;
}

const BADGE_TEXT: Record<FileUploadStatus, string> = {
  pending: 'Pending',
  uploading: 'Uploading',
  uploaded: 'Uploaded',
  failed: 'Pending',
};

function hasFiles(event: DragEvent<HTMLElement>): boolean {
  return Array.from(event.dataTransfer.types).includes('Files');
}

/**
 * A single-file uploader: a drop zone with a "Choose a file" button; the chosen file listed with
 * its size, a status badge and a remove button; a direct upload of the raw file with XMLHttpRequest
 * and a progress bar. State is exposed as `data-status` on the root ("empty" | "pending" |
 * "uploading" | "uploaded" | "failed") and `data-dragging` on the drop zone.
 */
export function FileUploader({
  label,
  uploadUrl,
  method = DEFAULT_UPLOAD_METHOD,
  headers,
  maxSize = MAX_FILE_BYTES,
  autoUpload = false,
  uploadFailedMessage = 'The file could not be uploaded. Please try again.',
  onFileChange,
  onUploadStart,
  onUploadProgress,
  onUploaded,
  onUploadError,
  ref,
}: FileUploaderProps) {
  const labelId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const chooseRef = useRef<HTMLButtonElement>(null);
  const dragDepth = useRef(0);
  const current = useRef<{ file: File; upload: UploadHandle | null } | null>(null);
  const [selected, setSelected] = useState<SelectedFile | null>(null);
  const [dragging, setDragging] = useState(false);
  const [sizeError, setSizeError] = useState<string | null>(null);

  const previewUrl = selected?.previewUrl;
  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  useEffect(
    () => () => {
      current.current?.upload?.abort();
    },
    [],
  );

  const updateIfCurrent = (file: File, change: Partial<SelectedFile>) => {
    setSelected((previous) => (previous?.file === file ? { ...previous, ...change } : previous));
  };

  const upload = async (file: File | null = current.current?.file ?? null): Promise<void> => {
    if (!file) {
      const refusal = new UploadError(
        'refused',
        'Upload refused: exactly one file is needed, but none is chosen.',
      );
      logUploadFailure(refusal);
      throw refusal;
    }
    if (!uploadUrl) {
      const refusal = new UploadError(
        'refused',
        `Upload of "${file.name}" refused: no upload address is set.`,
        {
          fileName: file.name,
        },
      );
      logUploadFailure(refusal);
      throw refusal;
    }
    const entry = current.current;
    if (entry?.file !== file) return;
    entry.upload?.abort();
    updateIfCurrent(file, { status: 'uploading', progress: 0 });
    onUploadStart?.(file);
    const handle = startUpload({
      file,
      url: uploadUrl,
      method,
      headers,
      onProgress: (percent) => {
        updateIfCurrent(file, { progress: percent });
        onUploadProgress?.(percent, file);
      },
    });
    entry.upload = handle;
    try {
      const status = await handle.done;
      updateIfCurrent(file, { status: 'uploaded', progress: 100 });
      onUploaded?.(file, status);
    } catch (caught) {
      const error =
        caught instanceof UploadError
          ? caught
          : new UploadError('network', String(caught), { fileName: file.name });
      logUploadFailure(error);
      if (error.kind !== 'abort') {
        updateIfCurrent(file, { status: 'failed', progress: 0 });
        onUploadError?.(error);
      }
      throw error;
    } finally {
      if (entry.upload === handle) entry.upload = null;
    }
  };

  const clear = () => {
    current.current?.upload?.abort();
    current.current = null;
    setSelected(null);
    onFileChange?.(null);
  };

  useImperativeHandle(ref, () => ({
    upload: () => upload(),
    abort: () => {
      current.current?.upload?.abort();
    },
    clear,
  }));

  const choose = (file: File) => {
    if (isTooLarge(file.size, maxSize)) {
      setSizeError(fileTooLargeMessage(maxSize));
      return;
    }
    setSizeError(null);
    // One file at most: a new choice replaces the previous one (and stops its upload).
    current.current?.upload?.abort();
    current.current = { file, upload: null };
    setSelected({
      file,
      previewUrl: file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined,
      status: 'pending',
      progress: 0,
    });
    onFileChange?.(file);
    if (autoUpload) {
      // Failures are already logged, shown and sent to onUploadError.
      upload(file).catch(() => undefined);
    }
  };

  const onInputChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again is still a change.
    event.target.value = '';
    if (file) choose(file);
  };

  const onDragEnter = (event: DragEvent<HTMLDivElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    dragDepth.current += 1;
    setDragging(true);
  };
  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    // Entering a child fires enter on it before leave on the parent: count, do not toggle.
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    const files = Array.from(event.dataTransfer.files);
    const [first] = files;
    if (!first) return;
    if (files.length > 1) {
      console.warn(
        `Only one file can be added; kept "${first.name}" and ignored ${files.length - 1} more.`,
      );
    }
    choose(first);
  };

  const rootStatus = selected?.status ?? 'empty';

  return (
    <div className={styles.uploader} data-status={rootStatus}>
      <p id={labelId} className={styles.label}>
        {label}
      </p>
      {/* Dropping is a pointer shortcut; the "Choose a file" button inside is the keyboard way. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        role="group"
        aria-labelledby={labelId}
        className={styles.dropzone}
        data-dragging={dragging ? '' : undefined}
        onDragEnter={onDragEnter}
        onDragOver={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
      >
        <Icon path={UPLOAD_SHAPE} className={styles.dropIcon} />
        <p className={styles.dropText} aria-live="polite">
          {dragging ? 'Drop file to add' : 'Drag and drop file here or'}
        </p>
        <Button
          ref={chooseRef}
          variant="secondary"
          className={styles.choose}
          onClick={() => inputRef.current?.click()}
        >
          Choose a file
        </Button>
        <input
          ref={inputRef}
          type="file"
          className={styles.input}
          tabIndex={-1}
          aria-hidden="true"
          onChange={onInputChange}
        />
      </div>
      {sizeError ? (
        <Message severity="error" icon="warning">
          {sizeError}
        </Message>
      ) : null}
      {selected?.status === 'failed' ? (
        <Message severity="error">{uploadFailedMessage}</Message>
      ) : null}
      {selected ? (
        <ul className={styles.files} aria-label="Chosen file">
          <li className={styles.file} data-status={selected.status}>
            {selected.previewUrl ? (
              <img className={styles.preview} src={selected.previewUrl} alt="" />
            ) : (
              <Icon path={fileShape} className={styles.fileIcon} />
            )}
            <div className={styles.details}>
              <span className={styles.name}>{selected.file.name}</span>
              <span className={styles.meta}>
                <span className={styles.size}>{formatSize(selected.file.size)}</span>
                <span className={styles.badge} data-status={selected.status} role="status">
                  {selected.status === 'uploaded' ? <Icon path={checkShape} /> : null}
                  {BADGE_TEXT[selected.status]}
                </span>
              </span>
              {selected.status === 'uploading' ? (
                <ProgressBar
                  label={`Uploading ${selected.file.name}`}
                  value={selected.progress}
                  showValue
                />
              ) : null}
            </div>
            <button
              type="button"
              className={styles.remove}
              aria-label={`Remove ${selected.file.name}`}
              onClick={() => {
                clear();
                chooseRef.current?.focus();
              }}
            >
              <Icon path={closeShape} />
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
