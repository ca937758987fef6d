import { useEffect, useRef, useState } from 'react';
import type { UploadTicket } from '../actions/uploads';
import { uploadFallbackMessage, uploadFailedMessage } from '../lib/messages';
import { xsrfFieldName } from '../lib/xsrf-names';
import type { FileUploaderHandle, FileUploaderProps } from '../ui/FileUploader/FileUploader';
import { isInputError } from '../lib/action-failure';
import { actions } from './island-actions';

/** Where the chosen file stands on its way to storage. */
type UploadState =
  | { readonly phase: 'empty' }
  /** Hashing the file and asking for an upload address. */
  | { readonly phase: 'preparing'; readonly file: File }
  /** The address is known; the uploader sends the file there. */
  | { readonly phase: 'sending'; readonly file: File; readonly ticket: UploadTicket }
  | { readonly phase: 'uploaded'; readonly file: File; readonly id: string }
  | { readonly phase: 'failed'; readonly file: File; readonly message: string };

/** How the upload of the chosen file ended: its id, none chosen, or a failure. */
type UploadOutcome =
  | { readonly ok: true; readonly attachmentId: string | undefined }
  | { readonly ok: false; readonly message: string };

/** The base64 SHA-256 of a file, as a direct upload declares it. */
export async function sha256Base64(file: Blob): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The declaration of a file, as the `uploads.createDirectUpload` form carries it. */
export async function declarationForm(file: File, xsrfToken: string): Promise<FormData> {
  const form = new FormData();
  form.set(xsrfFieldName, xsrfToken);
  form.set('filename', file.name);
  form.set('content_type', file.type || 'application/octet-stream');
  form.set('byte_size', String(file.size));
  form.set('checksum', await sha256Base64(file));
  return form;
}

/**
 * One attachment sent straight to storage through the kit's FileUploader: when a file is chosen,
 * its SHA-256 is computed in the browser, the API gives a signed address for it
 * (`uploads.createDirectUpload`), and the uploader sends it there with its progress bar. The form
 * then carries only the file's id. `settled()` waits for the upload under way, so a form submitted
 * meanwhile goes on with the finished file.
 */
export function useDirectUpload({ xsrfToken }: { xsrfToken: string }) {
  const uploaderRef = useRef<FileUploaderHandle>(null);
  const [state, setState] = useState<UploadState>({ phase: 'empty' });
  const choice = useRef(0);
  const outcome = useRef<Promise<UploadOutcome>>(
    Promise.resolve({ ok: true, attachmentId: undefined }),
  );
  const settle = useRef<(result: UploadOutcome) => void>(() => undefined);

  const finish = (attempt: number, next: UploadState, result: UploadOutcome) => {
    if (attempt !== choice.current) return;
    setState(next);
    settle.current(result);
  };

  const prepare = async (file: File, attempt: number) => {
    let message = uploadFallbackMessage;
    try {
      const { data, error } = await actions.uploads.createDirectUpload(
        await declarationForm(file, xsrfToken),
      );
      if (data) {
        if (attempt === choice.current) setState({ phase: 'sending', file, ticket: data });
        return;
      }
      if (isInputError(error)) message = Object.values(error.fields).flat()[0] ?? message;
      else if (error.status < 500 && error.message) message = error.message;
    } catch (caught) {
      console.error(caught);
    }
    finish(attempt, { phase: 'failed', file, message }, { ok: false, message });
  };

  const onFileChange = (file: File | null) => {
    choice.current += 1;
    const attempt = choice.current;
    // Whoever waits on the replaced file moves on to this one (see `settled`).
    settle.current({ ok: true, attachmentId: undefined });
    if (!file) {
      setState({ phase: 'empty' });
      outcome.current = Promise.resolve({ ok: true, attachmentId: undefined });
      return;
    }
    outcome.current = new Promise((resolve) => {
      settle.current = resolve;
    });
    setState({ phase: 'preparing', file });
    void prepare(file, attempt);
  };

  // The uploader reads the address from its props: send once it has rendered with them. Each
  // address arrives in a state of its own, so this runs once per address.
  useEffect(() => {
    if (state.phase !== 'sending') return;
    const { file, ticket } = state;
    const attempt = choice.current;
    uploaderRef.current?.upload().then(
      () => {
        finish(
          attempt,
          { phase: 'uploaded', file, id: ticket.id },
          { ok: true, attachmentId: ticket.id },
        );
      },
      () => {
        // The uploader shows and logs the failure itself.
        finish(
          attempt,
          { phase: 'failed', file, message: uploadFailedMessage },
          { ok: false, message: uploadFailedMessage },
        );
      },
    );
  }, [state]);

  const ticket = state.phase === 'sending' ? state.ticket : undefined;
  const uploaderProps = {
    ref: uploaderRef,
    uploadUrl: ticket?.url,
    method: ticket?.method,
    headers: ticket?.headers,
    uploadFailedMessage,
    onFileChange,
  } satisfies Partial<FileUploaderProps>;

  return {
    /** Spread on the FileUploader. */
    uploaderProps,
    /** The id of the uploaded file, for the form's hidden field. */
    attachmentId: state.phase === 'uploaded' ? state.id : undefined,
    /** Why the file could not be sent, when the API refused it before the upload began. */
    error:
      state.phase === 'failed' && state.message !== uploadFailedMessage ? state.message : undefined,
    /**
     * Settles when the chosen file is uploaded (or failed), following a file chosen meanwhile;
     * at once when none is chosen.
     */
    settled: async (): Promise<UploadOutcome> => {
      for (;;) {
        const awaited = outcome.current;
        const result = await awaited;
        if (awaited === outcome.current) return result;
      }
    },
  };
}
