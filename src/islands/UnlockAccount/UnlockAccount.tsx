import { actions } from '../island-actions';
import { unlockFallbackMessage } from '../../lib/messages';
import { xsrfFieldName } from '../../lib/xsrf-names';
import { Button } from '../../ui/Button/Button';
import { ErrorSummary } from '../../ui/ErrorSummary/ErrorSummary';
import { Heading } from '../../ui/Heading/Heading';
import { Message } from '../../ui/Message/Message';
import { Text } from '../../ui/Text/Text';
import { TextInput } from '../../ui/TextInput/TextInput';
import styles from '../account-form.module.css';
import { useFormAction } from '../use-form-action';

interface UnlockAccountProps {
  readonly xsrfToken: string;
  /** The token from the emailed link (the page's address). */
  readonly unlockToken: string;
  /** The email typed last time, when the page re-renders a refused native post for a new link. */
  readonly submittedEmail?: string | undefined;
}

const noFields = [] as const;
const linkFields = [{ name: 'email', id: 'unlock-email' }] as const;

/**
 * One button, "Unlock my account": opening the link spends nothing, so a mail scanner that follows
 * links cannot use the token up. When the link is refused, a form asks for a new one.
 */
export default function UnlockAccount({
  xsrfToken,
  unlockToken,
  submittedEmail = '',
}: UnlockAccountProps) {
  const unlock = useFormAction(actions.auth.unlockAccount, {
    fallbackMessage: unlockFallbackMessage,
    fields: noFields,
  });
  const newLink = useFormAction(actions.auth.requestUnlockLink, {
    fallbackMessage: unlockFallbackMessage,
    fields: linkFields,
  });
  const refused = unlock.summary.length > 0 || unlock.fieldError('token') !== undefined;
  const wantsNewLink = refused || newLink.data !== undefined || newLink.summary.length > 0;

  return (
    <div className={styles['form']}>
      {!wantsNewLink && (
        <form
          className={styles['form']}
          action={unlock.formAction}
          noValidate
          onSubmit={unlock.onSubmit}
        >
          <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
          <input type="hidden" name="token" value={unlockToken} />
          <Button type="submit" loading={unlock.pending}>
            Unlock my account
          </Button>
        </form>
      )}
      {wantsNewLink && (
        <form
          className={styles['form']}
          action={newLink.formAction}
          noValidate
          onSubmit={newLink.onSubmit}
          aria-labelledby="unlock-new-link"
        >
          <ErrorSummary
            errors={[
              ...unlock.summary,
              ...(unlock.fieldError('token')
                ? [{ message: 'This unlock link is not valid.' }]
                : []),
              ...newLink.summary,
            ]}
          />
          {newLink.data && <Message severity="success">{newLink.data.notice}</Message>}
          <Heading level={2} id="unlock-new-link">
            Get a new unlock link
          </Heading>
          <Text>Enter the email address of your account and we will send a new link.</Text>
          <input type="hidden" name={xsrfFieldName} value={xsrfToken} />
          <TextInput
            id="unlock-email"
            label="Email address"
            name="email"
            type="email"
            required
            autoComplete="email"
            spellCheck={false}
            defaultValue={submittedEmail}
            error={newLink.fieldError('email')}
          />
          <Button type="submit" loading={newLink.pending}>
            Send a new link
          </Button>
        </form>
      )}
    </div>
  );
}
