import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  booleanSetting,
  choiceSetting,
  ConfigurationError,
  hostSetting,
  isLoopbackHost,
  originListSetting,
  originSetting,
  parseSettings,
  portSetting,
  productionConveniencesLine,
  servesProduction,
  secretKeySetting,
  trustedProxiesSetting,
} from './settings.ts';
import { TrustedProxies } from './trusted-proxies.ts';

const schema = z.object({
  FLAG: booleanSetting(false),
  API_HOST: hostSetting('127.0.0.1'),
  API_PORT: portSetting(3000),
  TRUSTED_PROXIES: trustedProxiesSetting,
});

describe('parseSettings', () => {
  it('gives the defaults for unset and empty variables', () => {
    expect(parseSettings(schema, { FLAG: '', API_HOST: ' ' })).toEqual({
      FLAG: false,
      API_HOST: '127.0.0.1',
      API_PORT: 3000,
      TRUSTED_PROXIES: TrustedProxies.none,
    });
  });

  it('reads true, false, 1 and 0 in any case', () => {
    expect(parseSettings(schema, { FLAG: 'True' }).FLAG).toBe(true);
    expect(parseSettings(schema, { FLAG: '1' }).FLAG).toBe(true);
    expect(parseSettings(schema, { FLAG: 'FALSE' }).FLAG).toBe(false);
    expect(parseSettings(schema, { FLAG: '0' }).FLAG).toBe(false);
  });

  it('refuses a wrong value with a message naming the variable and the value', () => {
    expect(() => parseSettings(schema, { FLAG: 'yes please' })).toThrow(
      new ConfigurationError(
        'Invalid configuration: FLAG must be true or false, not "yes please".',
      ),
    );
    expect(() => parseSettings(schema, { API_PORT: '70000' })).toThrow(/API_PORT must be a port/);
    expect(() => parseSettings(schema, { TRUSTED_PROXIES: '10.0.0.0/99' })).toThrow(
      /TRUSTED_PROXIES must list the proxies' addresses or networks.*not "10\.0\.0\.0\/99"/,
    );
    expect(() => parseSettings(schema, { API_HOST: 'api.example.com' })).toThrow(
      /API_HOST must be an IP address or localhost/,
    );
  });
});

describe('trustedProxiesSetting', () => {
  const proxiesSchema = z.object({ TRUSTED_PROXIES: trustedProxiesSetting });

  it('reads a list of proxy addresses and networks', () => {
    const { TRUSTED_PROXIES: proxies } = parseSettings(proxiesSchema, {
      TRUSTED_PROXIES: '10.0.0.0/8, loopback',
    });

    expect(proxies.trusts('10.1.2.3')).toBe(true);
    expect(proxies.trusts('::1')).toBe(true);
    expect(proxies.trusts('192.0.2.1')).toBe(false);
  });

  it('stops the start on a number of proxies, naming the variable and the form it takes now', () => {
    expect(() => parseSettings(proxiesSchema, { TRUSTED_PROXIES: '1' })).toThrow(
      new ConfigurationError(
        'Invalid configuration: TRUSTED_PROXIES must list the proxies\' addresses or networks, comma-separated (e.g. 10.0.0.0/8,::1 or loopback; empty for none), not a number of proxies ("1").',
      ),
    );
  });
});

describe('isLoopbackHost', () => {
  it('knows the addresses only this machine reaches', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.0.2.1', 'portal.example.com']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});

describe('secretKeySetting', () => {
  const secretSchema = z.object({ STORAGE_SECRET: secretKeySetting });

  it('is undefined when unset or empty (a random secret per process)', () => {
    expect(parseSettings(secretSchema, {}).STORAGE_SECRET).toBeUndefined();
    expect(parseSettings(secretSchema, { STORAGE_SECRET: ' ' }).STORAGE_SECRET).toBeUndefined();
  });

  it('takes a secret of 32 characters or more', () => {
    const secret = 's'.repeat(32);

    expect(parseSettings(secretSchema, { STORAGE_SECRET: secret }).STORAGE_SECRET).toBe(secret);
  });

  it('refuses a shorter secret without repeating it', () => {
    expect(() => parseSettings(secretSchema, { STORAGE_SECRET: 'short-secret-value' })).toThrow(
      new ConfigurationError(
        'Invalid configuration: STORAGE_SECRET must be at least 32 characters.',
      ),
    );
  });
});

describe('servesProduction', () => {
  it('is a server reached over https or by other machines', () => {
    expect(servesProduction('https://portal.example.com', '127.0.0.1')).toBe(true);
    expect(servesProduction(undefined, '0.0.0.0')).toBe(true);
    expect(servesProduction('http://127.0.0.1:4321', '127.0.0.1')).toBe(false);
    expect(servesProduction(undefined, 'localhost')).toBe(false);
  });
});

describe('productionConveniencesLine', () => {
  it('says in one line that a production server has no demo accounts and no outbox viewer', () => {
    const line = productionConveniencesLine({ demoData: false, outboxViewer: false });
    expect(line).toBe(
      'Serving for production: no demo accounts, no outbox viewer (docs/OPERATIONS.md).',
    );
  });

  it('warns in one line about each one its settings turned on', () => {
    const line = productionConveniencesLine({ demoData: true, outboxViewer: true });
    expect(line).toMatch(/^WARNING: /);
    expect(line).toContain('SEED_DEMO_DATA=true');
    expect(line).toContain('OUTBOX_VIEWER=true');
    expect(line).not.toContain('\n');
  });
});

describe('choiceSetting', () => {
  const levels = z.object({ LEVEL: choiceSetting(['low', 'high'], undefined) });

  it('reads one of its choices in any case, and nothing when unset or empty', () => {
    expect(parseSettings(levels, { LEVEL: ' High ' }).LEVEL).toBe('high');
    expect(parseSettings(levels, { LEVEL: '' }).LEVEL).toBeUndefined();
    expect(parseSettings(levels, {}).LEVEL).toBeUndefined();
  });

  it('refuses anything else, naming the variable, every choice and the value', () => {
    expect(() => parseSettings(levels, { LEVEL: 'medium' })).toThrow(
      new ConfigurationError(
        'Invalid configuration: LEVEL must be one of low or high, not "medium".',
      ),
    );
    const only = z.object({ MODE: choiceSetting(['strict'], undefined) });
    expect(() => parseSettings(only, { MODE: 'lax' })).toThrow(
      new ConfigurationError('Invalid configuration: MODE must be strict, not "lax".'),
    );
  });
});

describe('originSetting and originListSetting', () => {
  const origins = z.object({
    ORIGIN: originSetting(undefined, 'http://127.0.0.1:3000'),
    ORIGINS: originListSetting,
  });

  it('read nothing when unset or empty', () => {
    expect(parseSettings(origins, { ORIGIN: ' ', ORIGINS: '' })).toEqual({
      ORIGIN: undefined,
      ORIGINS: [],
    });
  });

  it('refuse an address that is not an http or https origin, with the example given', () => {
    expect(() => parseSettings(origins, { ORIGIN: 'ftp://x' })).toThrow(
      new ConfigurationError(
        'Invalid configuration: ORIGIN must be an http or https origin such as http://127.0.0.1:3000, not "ftp://x".',
      ),
    );
    expect(() =>
      parseSettings(origins, { ORIGINS: 'https://a.example, https://b.example/x' }),
    ).toThrow(
      /ORIGINS must list http or https origins, comma-separated, .*not "https:\/\/b\.example\/x"/,
    );
  });
});
