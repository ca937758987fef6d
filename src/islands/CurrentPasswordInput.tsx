import { TextInput } from '../ui/TextInput/TextInput';

interface CurrentPasswordInputProps {
  /** The element id, which the form's error summary links to. */
  readonly id: string;
  readonly error?: string | undefined;
}

/**
 * "Current password", the proof an Account form asks before a change: posted as `current_password`,
 * and offered by password managers as the saved one.
 */
export function CurrentPasswordInput({ id, error }: CurrentPasswordInputProps) {
  return (
    <TextInput
      id={id}
      label="Current password"
      name="current_password"
      type="password"
      required
      autoComplete="current-password"
      error={error}
    />
  );
}
