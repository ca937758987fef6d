// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Field } from './Field';

describe('Field', () => {
  afterEach(cleanup);

  it('ties its label to the control', () => {
    render(
      <Field id="city" label="City" required>
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(screen.getByLabelText('City').id).toBe('city');
  });

  it('adds "(optional)" to the label of a field that is not required', () => {
    render(
      <Field id="nickname" label="Nickname">
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(screen.getByLabelText('Nickname (optional)')).toBeDefined();
  });

  it('describes the control with its hint and its error, in that order', () => {
    render(
      <Field id="code" label="Code" required hint="Six digits" error="Enter the code">
        {(control) => <input {...control} />}
      </Field>,
    );
    const input = screen.getByLabelText('Code');
    expect(input.getAttribute('aria-describedby')).toBe('code-hint code-error');
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('keeps the live region in place when there is no error', () => {
    const { container } = render(
      <Field id="x" label="X" required>
        {(control) => <input {...control} />}
      </Field>,
    );
    expect(container.querySelector('[aria-live="polite"]')).not.toBeNull();
    expect(screen.getByLabelText('X').hasAttribute('aria-invalid')).toBe(false);
  });
});
