import { describe, expect, it } from 'vitest';
import { pageRoutes } from '../src/routes.ts';
import { fillPattern, planVisits } from './page-weight.ts';

describe('planVisits', () => {
  const { visits, unmeasured } = planVisits();
  const accountedFor = new Set([...visits, ...unmeasured].map((entry) => entry.route));

  it('accounts for every route of the table', () => {
    expect(pageRoutes.filter((route) => !accountedFor.has(route.name))).toEqual([]);
  });

  it('visits an optional parameter both with and without a value', () => {
    const signUp = visits.filter(
      (visit) => visit.route === 'SignUp' && visit.visitor === 'signed out',
    );
    expect(signUp.map((visit) => visit.state)).toEqual([
      'signed out, no companySlug',
      'signed out, with companySlug',
    ]);
  });

  it('visits the terms both signed out and signed in, as public pages are', () => {
    expect(visits.filter((visit) => visit.route === 'Terms').map((visit) => visit.state)).toEqual([
      'signed out',
      'member',
    ]);
  });

  it('visits the sign-in page with the toast left by a sign-out', () => {
    expect(visits.map((visit) => `${visit.route}: ${visit.state}`)).toContain(
      'SignIn: signed out, toast after sign-out',
    );
  });

  it('leaves out development pages, the content editor, endpoints and redirects, saying why', () => {
    expect(unmeasured.map((entry) => entry.route).sort()).toEqual(
      [
        'AccountDataExport',
        'AccountDeleted',
        'CompanySignInCallback',
        'CompanySignInSamlAcs',
        'CompanySignInSamlMetadata',
        'ContentEditor',
        'ContentEditorApi',
        'CspReports',
        'Health',
        'KitGallery',
        'OutboxViewer',
        'Ready',
        'RequestAttachment',
        'Root',
        'SignedOut',
        'Storage',
        'Welcome',
      ].sort(),
    );
  });
});

describe('fillPattern', () => {
  it('puts encoded values in place of the parameters', () => {
    expect(fillPattern('/requests/category/:categoryId', { categoryId: 'a b' })).toBe(
      '/requests/category/a%20b',
    );
  });

  it('refuses a parameter it has no value for', () => {
    expect(() => fillPattern('/unlock/:unlockToken', {})).toThrow(':unlockToken');
  });
});
