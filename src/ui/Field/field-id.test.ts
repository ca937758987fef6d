import { describe, expect, it } from 'vitest';
import { fieldIdFor } from './field-id';

describe('fieldIdFor', () => {
  it('prefixes the name so ids do not clash with other page ids', () => {
    expect(fieldIdFor('email')).toBe('field-email');
  });

  it('replaces characters that would need escaping in a URL fragment or selector', () => {
    expect(fieldIdFor('user[email]')).toBe('field-user-email-');
  });

  it('gives the same id for the same name on server and client', () => {
    expect(fieldIdFor('last_name')).toBe(fieldIdFor('last_name'));
  });
});
