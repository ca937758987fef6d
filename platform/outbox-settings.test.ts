import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigurationError,
  originSetting,
  parseOrigin,
  parseSettings,
  smtpUrlSetting,
} from './settings.ts';

const schema = z.object({
  PUBLIC_ORIGIN: originSetting('http://127.0.0.1:4321'),
  SMTP_URL: smtpUrlSetting,
});

describe('parseOrigin', () => {
  it('keeps the origin of an http or https address, with or without a trailing slash', () => {
    expect(parseOrigin('https://portal.example.com')).toBe('https://portal.example.com');
    expect(parseOrigin('https://portal.example.com/')).toBe('https://portal.example.com');
    expect(parseOrigin('HTTP://Portal.Example.com:8080')).toBe('http://portal.example.com:8080');
    expect(parseOrigin('https://portal.example.com:443')).toBe('https://portal.example.com');
  });

  it.each([
    'portal.example.com',
    'ftp://portal.example.com',
    'https://portal.example.com/members',
    'https://portal.example.com/?a=1',
    'https://user:pass@portal.example.com',
    'javascript:alert(1)',
  ])('refuses %s', (value) => {
    expect(parseOrigin(value)).toBeUndefined();
  });
});

describe('PUBLIC_ORIGIN and SMTP_URL', () => {
  it('default to the local site and no SMTP server', () => {
    expect(parseSettings(schema, { PUBLIC_ORIGIN: ' ', SMTP_URL: '' })).toEqual({
      PUBLIC_ORIGIN: 'http://127.0.0.1:4321',
      SMTP_URL: undefined,
    });
  });

  it('read an origin and an smtp or smtps URL', () => {
    expect(
      parseSettings(schema, {
        PUBLIC_ORIGIN: 'https://portal.example.com/',
        SMTP_URL: ' smtps://mailer:secret@smtp.example.com:465 ',
      }),
    ).toEqual({
      PUBLIC_ORIGIN: 'https://portal.example.com',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
    });
    expect(parseSettings(schema, { SMTP_URL: 'smtp://localhost:1025' }).SMTP_URL).toBe(
      'smtp://localhost:1025',
    );
  });

  it('names a bad PUBLIC_ORIGIN and what it must be', () => {
    expect(() => parseSettings(schema, { PUBLIC_ORIGIN: 'portal.example.com' })).toThrow(
      'Invalid configuration: PUBLIC_ORIGIN must be an http or https origin such as https://portal.example.com, not "portal.example.com".',
    );
  });

  it('refuses a bad SMTP_URL without repeating it, since it may hold a password', () => {
    let error: unknown;
    try {
      parseSettings(schema, { SMTP_URL: 'https://mailer:s3cret@smtp.example.com' });
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/^Invalid configuration: SMTP_URL must be a URL/);
    expect((error as Error).message).not.toContain('s3cret');
  });
});
