import { startTransition, useEffect, useId, useState, type SubmitEvent } from 'react';
import { requestFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { countNewRequest } from '../../stores/user';
import { Button } from '../../ui/Button/Button';
import { Chip } from '../../ui/Chip/Chip';
import { ErrorSummary, type ErrorSummaryItem } from '../../ui/ErrorSummary/ErrorSummary';
import { FileUploader } from '../../ui/FileUploader/FileUploader';
import { TextInput } from '../../ui/TextInput/TextInput';
import { actions } from '../island-actions';
import { useDirectUpload } from '../use-direct-upload';
import { useFormAction } from '../use-form-action';
import styles from '../request-form.module.css';

/** A category to choose from: its id, name and description. */
export interface CategoryChoice {
  readonly id: string;
  readonly name: string;
  readonly description: string;
}

interface NewRequestFormProps {
  readonly categories: readonly CategoryChoice[];
  /** The category chosen to begin with (on a category's own page). */
  readonly presetCategoryId?: string | undefined;
  readonly xsrfToken: string;
}

const titleId = 'new-request-title';
const detailsId = 'new-request-details';
const attachmentId = 'new-request-attachment';
const categoryIdOf = (id: string) => `new-request-category-${id}`;

/**
 * The new-request form of the drawer: a category, a title, details and one file, which goes
 * straight to storage as soon as it is chosen. Sending waits for that upload, then counts the
 * request at once and goes to its page.
 */
export function NewRequestForm({ categories, presetCategoryId, xsrfToken }: NewRequestFormProps) {
  const firstCategory = categories[0]?.id ?? '';
  const fields = [
    { name: 'category_id', id: categoryIdOf(presetCategoryId ?? firstCategory) },
    { name: 'title', id: titleId },
    { name: 'details', id: detailsId },
    { name: 'attachment', id: attachmentId },
  ];
  const form = useFormAction(actions.requests.create, {
    fallbackMessage: requestFallbackMessage,
    fields,
  });
  const upload = useDirectUpload({ xsrfToken });
  const [waitingForFile, setWaitingForFile] = useState(false);
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  const categoryErrorId = useId();

  const sent = form.data !== undefined;
  useEffect(() => {
    if (sent) countNewRequest();
  }, [sent]);

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
    formData.set('attachment_id', file.attachmentId ?? '');
    startTransition(() => {
      form.formAction(formData);
    });
  };

  const categoryError = form.fieldError('category_id');
  const attachmentError = fileProblem ?? upload.error ?? form.fieldError('attachment');
  const summary: ErrorSummaryItem[] = fileProblem
    ? [{ fieldId: attachmentId, message: fileProblem }]
    : form.summary;

  return (
    <form
      className={styles['form']}
      action={form.formAction}
      noValidate
      onSubmit={(event) => {
        void onSubmit(event);
      }}
    >
      <ErrorSummary errors={summary} />
      <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
      <input type="hidden" name="attachment_id" value={upload.attachmentId ?? ''} />
      <fieldset className={styles['choices']}>
        <legend className={styles['legend']}>Category</legend>
        {categoryError && (
          <p id={categoryErrorId} className={styles['error']}>
            <span className="visually-hidden">Error: </span>
            {categoryError}
          </p>
        )}
        {categories.map((category) => (
          <Chip
            key={category.id}
            variant="radio"
            id={categoryIdOf(category.id)}
            name="category_id"
            value={category.id}
            title={category.name}
            description={category.description}
            defaultSelected={category.id === presetCategoryId}
            error={categoryError !== undefined}
            aria-describedby={categoryError ? categoryErrorId : undefined}
          />
        ))}
      </fieldset>
      <TextInput
        id={titleId}
        label="Title"
        name="title"
        required
        hint="A few words: what do you need?"
        error={form.fieldError('title')}
      />
      <TextInput
        id={detailsId}
        label="Details"
        name="details"
        type="textarea"
        rows={5}
        error={form.fieldError('details')}
      />
      <div id={attachmentId} className={styles['attachment']} tabIndex={-1}>
        <FileUploader label="Attachment (optional)" {...upload.uploaderProps} />
        {attachmentError && (
          <p className={styles['error']}>
            <span className="visually-hidden">Error: </span>
            {attachmentError}
          </p>
        )}
      </div>
      <div className={styles['actions']}>
        <Button type="submit" loading={form.pending || waitingForFile}>
          Send request
        </Button>
      </div>
    </form>
  );
}
