import { useRef, useState } from 'react';
import { Button } from '../../../ui/Button/Button';
import {
  FileUploader,
  type FileUploaderHandle,
  type FileUploaderProps,
} from '../../../ui/FileUploader/FileUploader';
import styles from './Gallery.module.css';

interface UploaderExampleProps {
  label: string;
  uploadUrl: string | undefined;
  /** Prefix of the event log lines, so tests can tell the examples apart. */
  logLabel: string;
}

function UploaderExample({ label, uploadUrl, logLabel }: UploaderExampleProps) {
  const uploader = useRef<FileUploaderHandle>(null);
  const [events, setEvents] = useState<string[]>([]);
  const log = (line: string) => {
    setEvents((previous) => [...previous, line]);
  };
  const callbacks: Partial<FileUploaderProps> = {
    onFileChange: (file) => {
      log(file ? `file-change: ${file.name}` : 'file-change: none');
    },
    onUploadStart: (file) => {
      log(`upload-start: ${file.name}`);
    },
    onUploaded: (file, status) => {
      log(`uploaded: ${file.name} (${status})`);
    },
    onUploadError: (error) => {
      log(`upload-error: ${error.kind}${error.status ? ` ${error.status}` : ''}`);
    },
  };

  return (
    <div className={styles.stack}>
      <FileUploader ref={uploader} label={label} uploadUrl={uploadUrl} {...callbacks} />
      <div className={styles.row}>
        <Button
          onClick={() => {
            uploader.current?.upload().catch(() => undefined);
          }}
        >
          {`Upload: ${logLabel}`}
        </Button>
      </div>
      <div role="log" aria-label={`Events: ${logLabel}`}>
        <ol className={styles.log}>
          {events.map((event, index) => (
            // The log only grows, so positions are stable keys.
            <li key={index}>{event}</li>
          ))}
        </ol>
      </div>
    </div>
  );
}

/** Uploaders against the gallery's own upload target: one that succeeds slowly, one answered 500, one dropped, one without an address. */
export default function UploadersDemo() {
  return (
    <div className={styles.grid}>
      <UploaderExample
        label="Attachment"
        logLabel="attachment"
        uploadUrl="/kit/upload-target?throttle=1"
      />
      <UploaderExample
        label="Attachment (storage answers 500)"
        logLabel="answers 500"
        uploadUrl="/kit/upload-target?fail=500"
      />
      <UploaderExample
        label="Attachment (connection drops)"
        logLabel="connection drops"
        uploadUrl="/kit/upload-target?drop=1"
      />
      <UploaderExample
        label="Attachment (no address)"
        logLabel="no address"
        uploadUrl={undefined}
      />
    </div>
  );
}
