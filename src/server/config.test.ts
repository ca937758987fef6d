import { describe, expect, it } from 'vitest';
import { parseConfig, productionApiWarning } from './config';

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

  it('uses Secure cookies when the public origin is https', () => {
    expect(parseConfig({ PUBLIC_ORIGIN: 'https://portal.example' }).secureCookies).toBe(true);
  });

  it('names the variable when a value is wrong', () => {
    expect(() => parseConfig({ API_ORIGIN: 'not a url' })).toThrow(/API_ORIGIN/);
    expect(() => parseConfig({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
    expect(() => parseConfig({ SEED_DEMO_DATA: 'maybe' })).toThrow(/SEED_DEMO_DATA/);
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
