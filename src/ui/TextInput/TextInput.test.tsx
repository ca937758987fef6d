// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { TextInput } from './TextInput';

describe('TextInput', () => {
  afterEach(cleanup);

  it('is labelled by its label and named by its name', () => {
    render(<TextInput label="Email" name="email" type="email" required />);
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('name')).toBe('email');
    expect(input.getAttribute('type')).toBe('email');
    expect(input.hasAttribute('required')).toBe(true);
  });

  it('takes a stable id from its name when none is given', () => {
    render(<TextInput label="Email" name="email" required />);
    expect(screen.getByLabelText('Email').id).toBe('field-email');
  });

  it('uses the id it is given', () => {
    render(<TextInput label="Email" name="email" id="sign-in-email" required />);
    expect(screen.getByLabelText('Email').id).toBe('sign-in-email');
  });

  it('shows "(optional)" after the label of a field that is not required', () => {
    render(<TextInput label="Middle name" name="middle_name" />);
    expect(screen.getByText('(optional)')).toBeDefined();
    expect(screen.getByLabelText('Middle name (optional)')).toBeDefined();
  });

  it('shows no "(optional)" on a required field', () => {
    render(<TextInput label="Password" name="password" type="password" required />);
    expect(screen.queryByText('(optional)')).toBeNull();
  });

  it('shows its error under the field, marks it invalid and points at the error', () => {
    render(<TextInput label="Email" name="email" required error="Enter an email address" />);
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const error = screen.getByText('Enter an email address');
    const described = input.getAttribute('aria-describedby') ?? '';
    expect(described.split(' ')).toContain(error.parentElement?.id);
    expect(error.closest('[aria-live]')).not.toBeNull();
  });

  it('is not marked invalid without an error', () => {
    render(<TextInput label="Email" name="email" required error={undefined} />);
    expect(screen.getByLabelText('Email').hasAttribute('aria-invalid')).toBe(false);
  });

  it('describes the field with its hint', () => {
    render(<TextInput label="Code" name="code" required hint="We texted it to you" />);
    const input = screen.getByLabelText('Code');
    expect(input.getAttribute('aria-describedby')).toBe(screen.getByText('We texted it to you').id);
  });

  it('renders a number as numeric text with a numeric keyboard', () => {
    render(<TextInput label="Age" name="age" type="number" required />);
    const input = screen.getByLabelText('Age');
    expect(input.getAttribute('type')).toBe('text');
    expect(input.getAttribute('inputmode')).toBe('numeric');
    expect(input.getAttribute('pattern')).toBe('[0-9]*');
  });

  it('renders a textarea of three rows by default', () => {
    render(<TextInput label="Details" name="details" type="textarea" required />);
    const textarea = screen.getByLabelText('Details');
    expect(textarea.tagName).toBe('TEXTAREA');
    expect(textarea.getAttribute('rows')).toBe('3');
  });

  it('renders a textarea with the rows it is given', () => {
    render(<TextInput label="Details" name="details" type="textarea" rows={6} required />);
    expect(screen.getByLabelText('Details').getAttribute('rows')).toBe('6');
  });

  it('passes native props such as autoComplete and defaultValue through', () => {
    render(
      <TextInput
        label="Email"
        name="email"
        required
        autoComplete="username"
        defaultValue="a@example.com"
      />,
    );
    const input = screen.getByLabelText<HTMLInputElement>('Email');
    expect(input.getAttribute('autocomplete')).toBe('username');
    expect(input.value).toBe('a@example.com');
  });

  it('hands its element to a ref', () => {
    const ref = createRef<HTMLInputElement | HTMLTextAreaElement>();
    render(<TextInput label="Email" name="email" required ref={ref} />);
    expect(ref.current).toBe(screen.getByLabelText('Email'));
  });

  it('renders the same markup on the server as on the client', () => {
    const html = renderToString(<TextInput label="Email" name="email" error="Wrong" />);
    expect(html).toContain('id="field-email"');
    expect(html).toContain('aria-invalid="true"');
  });
});
