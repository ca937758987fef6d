// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PhoneInput } from './PhoneInput';

function phoneField() {
  return screen.getByLabelText<HTMLInputElement>(/Mobile number/);
}

/** Types as a browser would: the selection before, the new text, the caret after. */
function typeInto(input: HTMLInputElement, char: string) {
  const at = input.selectionStart ?? input.value.length;
  const next = input.value.slice(0, at) + char + input.value.slice(input.selectionEnd ?? at);
  input.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, data: char }));
  fireEvent.change(input, { target: { value: next } });
}

describe('PhoneInput', () => {
  afterEach(cleanup);

  it('is a labelled tel field with a tel keyboard', () => {
    render(<PhoneInput label="Mobile number" name="mobile" mask="(999) 999-9999" required />);
    const input = phoneField();
    expect(input.type).toBe('tel');
    expect(input.getAttribute('inputmode')).toBe('tel');
    expect(input.id).toBe('field-mobile');
  });

  it('shows "(optional)" when not required', () => {
    render(<PhoneInput label="Mobile number" name="mobile" mask="(999) 999-9999" />);
    expect(screen.getByLabelText('Mobile number (optional)')).toBeDefined();
  });

  it('is empty until focused, then shows the mask with underscores', () => {
    render(<PhoneInput label="Mobile number" name="mobile" mask="(999) 999-9999" required />);
    const input = phoneField();
    expect(input.value).toBe('');
    fireEvent.focus(input);
    expect(input.value).toBe('(___) ___-____');
  });

  it('uses another slot character when given one', () => {
    render(
      <PhoneInput label="Mobile number" name="mobile" mask="999-9999" slotChar="#" required />,
    );
    const input = phoneField();
    fireEvent.focus(input);
    expect(input.value).toBe('###-####');
  });

  it('fits typed digits to the mask, refuses letters and reports the value', () => {
    const onValueChange = vi.fn();
    render(
      <PhoneInput
        label="Mobile number"
        name="mobile"
        mask="(999) 999-9999"
        required
        onValueChange={onValueChange}
      />,
    );
    const input = phoneField();
    input.focus();
    fireEvent.focus(input);
    for (const char of '555x1') typeInto(input, char);
    expect(input.value).toBe('(555) 1__-____');
    expect(onValueChange).toHaveBeenLastCalledWith({
      masked: '(555) 1',
      raw: '5551',
      complete: false,
    });
  });

  it('formats a pasted number and marks it complete', () => {
    const onValueChange = vi.fn();
    render(
      <PhoneInput
        label="Mobile number"
        name="mobile"
        mask="(999) 999-9999"
        required
        onValueChange={onValueChange}
      />,
    );
    const input = phoneField();
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '555-123-4567' } });
    fireEvent.blur(input);
    expect(input.value).toBe('(555) 123-4567');
    expect(input.hasAttribute('data-complete')).toBe(true);
    expect(onValueChange).toHaveBeenLastCalledWith(expect.objectContaining({ complete: true }));
  });

  it('shows a formatted default value', () => {
    render(
      <PhoneInput
        label="Mobile number"
        name="mobile"
        mask="(999) 999-9999"
        defaultValue="5551234567"
        required
      />,
    );
    expect(phoneField().value).toBe('(555) 123-4567');
  });

  it('shows its error and marks itself invalid', () => {
    render(
      <PhoneInput
        label="Mobile number"
        name="mobile"
        mask="(999) 999-9999"
        required
        error="Enter a mobile number"
      />,
    );
    expect(phoneField().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter a mobile number')).toBeDefined();
  });
});
