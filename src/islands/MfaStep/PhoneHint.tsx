import { maskedPhone } from '../../lib/masked-phone';
import { Text } from '../../ui/Text/Text';

interface PhoneHintProps {
  /** The last digits of the phone; only the last two are shown. */
  readonly digits: string;
  /** What comes before the number, e.g. "We have sent a code to". */
  readonly lead: string;
}

/**
 * Names a phone by its last two digits: masked for the eye, spelled out for a screen reader,
 * which would otherwise read the bullets one by one.
 */
export function PhoneHint({ digits, lead }: PhoneHintProps) {
  return (
    <Text>
      {lead} <span aria-hidden="true">{maskedPhone(digits)}</span>
      <span className="visually-hidden">the phone number ending in {digits.slice(-2)}</span>.
    </Text>
  );
}
