import { describe, expect, it } from 'vitest';
import { createSmtpEmailProvider, defaultMailFrom } from './mail-providers.ts';

describe('defaultMailFrom', () => {
  it('sends from no-reply at the public host name', () => {
    expect(defaultMailFrom('https://portal.example.com')).toBe(
      'Member Concierge <no-reply@portal.example.com>',
    );
  });

  it('falls back to localhost for an IP address or a name without a dot', () => {
    expect(defaultMailFrom('http://127.0.0.1:4321')).toBe('Member Concierge <no-reply@localhost>');
    expect(defaultMailFrom('http://[::1]:4321')).toBe('Member Concierge <no-reply@localhost>');
    expect(defaultMailFrom('http://localhost:4321')).toBe('Member Concierge <no-reply@localhost>');
  });
});

describe('createSmtpEmailProvider', () => {
  it('describes the server without its user name or password', async () => {
    const provider = createSmtpEmailProvider({
      url: 'smtp://mailer:hunter2@smtp.example.com:587',
      from: 'a@example.com',
    });

    expect(provider.description).toBe('SMTP smtp.example.com:587');
    await provider.close?.();
  });
});
