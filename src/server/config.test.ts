import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../platform/settings.ts';
import {
  insecureServingProblem,
  localAddress,
  parseConfig,
  productionApiWarning,
  siteOrigin,
} from './config';

describe('the web configuration', () => {
  it('runs on embedded defaults with no environment at all', () => {
    expect(parseConfig({})).toMatchObject({
      apiOrigin: undefined,
      dataDir: './data',
      secureCookies: false,
      seedDemoData: true,
      kitGallery: false,
    });
  });

  it('seeds no demo accounts for production unless the setting names them', () => {
    for (const production of [
      { PUBLIC_ORIGIN: 'https://portal.example' },
      { HOST: '0.0.0.0', ALLOW_INSECURE_HTTP: 'true' },
    ]) {
      expect(parseConfig(production)).toMatchObject({
        servesProduction: true,
        seedDemoData: false,
        outboxViewer: false,
      });
      expect(parseConfig({ ...production, SEED_DEMO_DATA: 'true' }).seedDemoData).toBe(true);
    }
    expect(parseConfig({ PUBLIC_ORIGIN: 'http://127.0.0.1:4321' })).toMatchObject({
      servesProduction: false,
      seedDemoData: true,
    });
  });

  it('starts the demo company’s provider with the demo data on this machine, never for production', () => {
    expect(parseConfig({}).demoCompanySignIn).toBe(true);
    expect(parseConfig({ DEMO_COMPANY_SIGN_IN: 'false' }).demoCompanySignIn).toBe(false);
    expect(parseConfig({ SEED_DEMO_DATA: 'false' }).demoCompanySignIn).toBe(false);
    expect(
      parseConfig({
        PUBLIC_ORIGIN: 'https://portal.example',
        SEED_DEMO_DATA: 'true',
        DEMO_COMPANY_SIGN_IN: 'true',
      }).demoCompanySignIn,
    ).toBe(false);
  });

  it('uses Secure cookies when the public origin is https', () => {
    expect(parseConfig({ PUBLIC_ORIGIN: 'https://portal.example' }).secureCookies).toBe(true);
  });

  it('names the variable when a value is wrong', () => {
    expect(() => parseConfig({ API_ORIGIN: 'not a url' })).toThrow(/API_ORIGIN/);
    expect(() => parseConfig({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
    expect(() => parseConfig({ SEED_DEMO_DATA: 'maybe' })).toThrow(/SEED_DEMO_DATA/);
    expect(() => parseConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL/);
  });

  it('refuses an unknown LOG_LEVEL as every other setting words it, listing the levels', () => {
    expect(() => parseConfig({ LOG_LEVEL: 'verbose' })).toThrow(
      new ConfigurationError(
        'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace or silent, not "verbose".',
      ),
    );
    expect(() => parseConfig({ LOG_LEVEL: ' Debug ' })).not.toThrow();
    expect(() => parseConfig({ LOG_LEVEL: '' })).not.toThrow();
  });

  it('takes only http and https origins for API_ORIGIN and PUBLIC_ORIGIN', () => {
    expect(() => parseConfig({ API_ORIGIN: 'ftp://x' })).toThrow(
      new ConfigurationError(
        'Invalid configuration: API_ORIGIN must be an http or https origin such as http://127.0.0.1:3000, not "ftp://x".',
      ),
    );
    for (const wrong of [
      'ftp://portal.example.com',
      'https://portal.example.com/portal',
      'https://portal.example.com/?from=env',
      'https://user:secret@portal.example.com',
    ]) {
      expect(() => parseConfig({ PUBLIC_ORIGIN: wrong })).toThrow(
        `PUBLIC_ORIGIN must be an http or https origin such as https://portal.example.com, not "${wrong}"`,
      );
      expect(() => parseConfig({ API_ORIGIN: wrong })).toThrow(/API_ORIGIN must be an http/);
    }
    expect(
      parseConfig({
        API_ORIGIN: 'HTTP://127.0.0.1:3000/',
        PUBLIC_ORIGIN: 'https://Portal.example',
      }),
    ).toMatchObject({ apiOrigin: 'http://127.0.0.1:3000', publicOrigin: 'https://portal.example' });
  });

  it('takes only http and https origins in the lists of production origins', () => {
    for (const name of ['PRODUCTION_WEB_ORIGINS', 'PRODUCTION_API_ORIGINS']) {
      expect(() => parseConfig({ [name]: 'https://portal.example,ftp://x' })).toThrow(
        `${name} must list http or https origins, comma-separated, such as https://portal.example.com,https://admin.example.com, not "ftp://x"`,
      );
    }
    expect(
      parseConfig({ PRODUCTION_WEB_ORIGINS: ' https://portal.example/ , https://admin.example' })
        .productionWebOrigins,
    ).toEqual(['https://portal.example', 'https://admin.example']);
  });

  it('reads every boolean variable the same way, 1 and 0 included', () => {
    expect(parseConfig({ KIT_GALLERY: '1' }).kitGallery).toBe(true);
    expect(parseConfig({ KIT_GALLERY: 'TRUE' }).kitGallery).toBe(true);
    expect(parseConfig({ SEED_DEMO_DATA: '0' }).seedDemoData).toBe(false);
    expect(parseConfig({ ALLOW_INSECURE_HTTP: 'false' }).allowInsecureHttp).toBe(false);
  });

  it('trusts the proxies listed by address or network, none unless told', () => {
    expect(parseConfig({}).trustedProxies.trusts('127.0.0.1')).toBe(false);
    const { trustedProxies } = parseConfig({ TRUSTED_PROXIES: '10.0.0.0/8,::1' });
    expect(trustedProxies.trusts('10.0.0.7')).toBe(true);
    expect(trustedProxies.trusts('::1')).toBe(true);
    expect(trustedProxies.trusts('192.0.2.1')).toBe(false);
    expect(() => parseConfig({ TRUSTED_PROXIES: 'yes' })).toThrow(/TRUSTED_PROXIES must list/);
  });

  it('refuses the number of proxies TRUSTED_PROXIES once took, rather than trust on it', () => {
    expect(() => parseConfig({ TRUSTED_PROXIES: '2' })).toThrow(
      /TRUSTED_PROXIES must list the proxies' addresses or networks.*not a number of proxies/,
    );
  });

  it('names every wrong variable in one message', () => {
    const wrong = () => parseConfig({ PORT: 'eighty', HOST: 'portal.example.com' });
    expect(wrong).toThrow(/PORT must be a port number/);
    expect(wrong).toThrow(/HOST must be an IP address or localhost/);
  });

  it('serves plain HTTP on loopback, as `npm start` does with no settings', () => {
    expect(insecureServingProblem(parseConfig({}))).toBeUndefined();
    expect(insecureServingProblem(parseConfig({ HOST: '::1' }))).toBeUndefined();
    expect(
      insecureServingProblem(parseConfig({ PUBLIC_ORIGIN: 'http://[::1]:4321' })),
    ).toBeUndefined();
    expect(
      insecureServingProblem(parseConfig({ PUBLIC_ORIGIN: 'http://localhost:4321' })),
    ).toBeUndefined();
  });

  it('names a server on loopback by localhost, the one name passkeys work at', () => {
    expect(localAddress(parseConfig({}))).toBe('http://localhost:4321');
    expect(localAddress(parseConfig({ HOST: '::1', PORT: '4431' }))).toBe('http://localhost:4431');
    expect(localAddress({ host: '0.0.0.0', port: 4321 })).toBe('http://localhost:4321');
    expect(localAddress({ host: '192.0.2.7', port: 4321 })).toBe('http://192.0.2.7:4321');
  });

  it('links emails to the public origin when there is one, else to the local address', () => {
    expect(siteOrigin(parseConfig({}))).toBe('http://localhost:4321');
    expect(siteOrigin(parseConfig({ PUBLIC_ORIGIN: 'http://127.0.0.1:4431' }))).toBe(
      'http://127.0.0.1:4431',
    );
    expect(siteOrigin(parseConfig({ PUBLIC_ORIGIN: 'https://portal.example.com' }))).toBe(
      'https://portal.example.com',
    );
  });

  it('refuses plain HTTP to other machines unless the operator opts out', () => {
    expect(insecureServingProblem(parseConfig({ HOST: '0.0.0.0' }))).toMatch(/PUBLIC_ORIGIN/);
    expect(
      insecureServingProblem(parseConfig({ PUBLIC_ORIGIN: 'http://portal.example.com' })),
    ).toMatch(/portal\.example\.com/);
    expect(
      insecureServingProblem(parseConfig({ HOST: '0.0.0.0', ALLOW_INSECURE_HTTP: 'true' })),
    ).toBeUndefined();
    expect(
      insecureServingProblem(
        parseConfig({ HOST: '0.0.0.0', PUBLIC_ORIGIN: 'https://portal.example.com' }),
      ),
    ).toBeUndefined();
  });

  it('warns when a non-production server points at a production API', () => {
    const config = parseConfig({
      API_ORIGIN: 'https://api.portal.example',
      PRODUCTION_API_ORIGINS: 'https://api.portal.example',
      PUBLIC_ORIGIN: 'http://localhost:4321',
    });
    expect(productionApiWarning(config)).toMatch(/forbidden/);
  });

  it('stays quiet for production itself and for non-production APIs', () => {
    const production = parseConfig({
      API_ORIGIN: 'https://api.portal.example',
      PRODUCTION_API_ORIGINS: 'https://api.portal.example',
      PRODUCTION_WEB_ORIGINS: 'https://portal.example',
      PUBLIC_ORIGIN: 'https://portal.example',
    });
    expect(productionApiWarning(production)).toBeUndefined();
    expect(
      productionApiWarning(parseConfig({ API_ORIGIN: 'http://localhost:3000' })),
    ).toBeUndefined();
  });
});
