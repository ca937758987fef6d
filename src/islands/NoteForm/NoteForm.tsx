import { startTransition, useState, type SubmitEvent } from 'react';
import { noteFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import type { PostedForm } from '../../lib/posted-form';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary, type ErrorSummaryItem } from '../../ui/ErrorSummary/ErrorSummary';
import { FileUploader } from '../../ui/FileUploader/FileUploader';
import { formatSize } from '../../ui/FileUploader/format-size';
import { TextInput } from '../../ui/TextInput/TextInput';
import { actions } from '../island-actions';
import styles from '../request-form.module.css';
import { useDirectUpload } from '../use-direct-upload';
import { useFormAction } from '../use-form-action';
import { useHydrated } from '../use-hydrated';
import { MAX_FILE_BYTES } from '../../../contract/limits.ts';

interface NoteFormProps {
  readonly requestId: string;
  readonly xsrfToken: string;
  /** A note posted without JavaScript that was refused: its errors and what was typed. */
  readonly posted?: PostedForm | undefined;
}

const bodyId = 'note-body';
const attachmentId = 'note-attachment';
const fields = [
  { name: 'body', id: bodyId },
  { name: 'attachment', id: attachmentId },
] as const;

/**
 * A note on a request: words, one file, or both. Without JavaScript it is a plain multipart post
 * with a file field; once hydrated, the file goes straight to storage through the kit's uploader as
 * soon as it is chosen, and the note waits for it.
 */
export default function NoteForm({ requestId, xsrfToken, posted }: NoteFormProps) {
  const hydrated = useHydrated();
  const form = useFormAction(actions.requests.addNote, {
    fallbackMessage: noteFallbackMessage,
    fields,
  });
  const upload = useDirectUpload({ xsrfToken });
  const [submitted, setSubmitted] = useState(false);
  const [waitingForFile, setWaitingForFile] = useState(false);
  const [fileProblem, setFileProblem] = useState<string | undefined>();

  // Until the island submits for itself, it shows what the server said of a post without it.
  const fieldError = (name: string): string | undefined =>
    submitted ? form.fieldError(name) : posted?.fieldErrors[name];
  const postedSummary: ErrorSummaryItem[] = posted
    ? [
        ...(posted.message ? [{ message: posted.message }] : []),
        ...fields.flatMap(({ name, id }) => {
          const message = posted.fieldErrors[name];
          return message ? [{ fieldId: id, message }] : [];
        }),
      ]
    : [];
  const summary: ErrorSummaryItem[] = fileProblem
    ? [{ fieldId: attachmentId, message: fileProblem }]
    : submitted
      ? form.summary
      : postedSummary;
  const attachmentError = fileProblem ?? upload.error ?? fieldError('attachment');

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (form.pending || waitingForFile) return;
    const formData = new FormData(event.currentTarget);
    setWaitingForFile(true);
    const file = await upload.settled();
    setWaitingForFile(false);
    if (!file.ok) {
      setFileProblem(file.message);
      return;
    }
    setFileProblem(undefined);
    setSubmitted(true);
    formData.set('attachment_id', file.attachmentId ?? '');
    startTransition(() => {
      form.formAction(formData);
    });
  };

  return (
    <form
      className={styles['form']}
      method="post"
      action={String(actions.requests.addNote)}
      encType="multipart/form-data"
      noValidate
      onSubmit={(event) => {
        void onSubmit(event);
      }}
    >
      <ErrorSummary errors={summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <input type="hidden" name="request_id" value={requestId} />
      <input type="hidden" name="attachment_id" value={upload.attachmentId ?? ''} />
      <TextInput
        id={bodyId}
        label="Note"
        name="body"
        type="textarea"
        rows={4}
        hint="Write a note, add a file, or both."
        defaultValue={posted?.values['body'] ?? ''}
        error={fieldError('body')}
      />
      <div id={hydrated ? attachmentId : undefined} className={styles['attachment']} tabIndex={-1}>
        {hydrated ? (
          <FileUploader label="Attachment (optional)" {...upload.uploaderProps} />
        ) : (
          <div className={styles['file-field']}>
            <label className={styles['file-label']} htmlFor={attachmentId}>
              Attachment <span className={styles['optional']}>(optional)</span>
            </label>
            <p id={`${attachmentId}-hint`} className={styles['hint']}>
              One file, up to {formatSize(MAX_FILE_BYTES)}.
            </p>
            <input
              id={attachmentId}
              type="file"
              name="attachment"
              aria-describedby={`${attachmentId}-hint`}
              aria-invalid={attachmentError ? true : undefined}
            />
          </div>
        )}
        {attachmentError && (
          <p className={styles['error']}>
            <span className="visually-hidden">Error: </span>
            {attachmentError}
          </p>
        )}
      </div>
      <div className={styles['actions']}>
        <Button type="submit" loading={form.pending || waitingForFile}>
          Add note
        </Button>
      </div>
    </form>
  );
}
