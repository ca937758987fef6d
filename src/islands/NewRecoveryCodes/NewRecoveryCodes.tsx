import { Message } from '../../ui/Message/Message';
import { RecoveryCodeList } from '../RecoveryCodesForm/RecoveryCodeList';

interface NewRecoveryCodesProps {
  readonly codes: readonly string[];
  /** The change that made them, confirmed in words above them. */
  readonly confirmation?: string | undefined;
  /** Where "I have saved my codes" goes: the page, without the codes. */
  readonly savedHref: string;
}

/**
 * Recovery codes just made, as the page that answered the change shows them: what changed, then the
 * codes, hydrated so that they can be printed.
 */
export default function NewRecoveryCodes({
  codes,
  confirmation,
  savedHref,
}: NewRecoveryCodesProps) {
  return (
    <>
      {confirmation && <Message severity="success">{confirmation}</Message>}
      <RecoveryCodeList codes={codes} savedHref={savedHref} />
    </>
  );
}
