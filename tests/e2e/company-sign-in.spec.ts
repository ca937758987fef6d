import { expect, test, type Page } from '@playwright/test';
import type { OidcAccount } from '../../scripts/identity-providers/oidc-identity-provider';
import { newPerson, signUp } from './support/accounts';
import {
  companyDomains,
  startPortalWithCompanySignIn,
  type PortalWithCompanySignIn,
} from './support/company-sign-in';
import { recordCspViolations } from './support/csp-violations';
import { setUpApp, nextCode } from './support/authenticator-app';
import {
  expectNoAxeViolations,
  openMemberMenu,
  signOut,
  waitForHydration,
} from './support/journeys';
import type { PortalServer } from './support/portal-server';

/**
 * Company sign-in (docs/PRODUCT.md §15) as a company's people meet it: their address on SignIn
 * sends them to their company's provider (real providers on loopback, set up with the operator's
 * command), whose own page they sign in on, and back. Acme Health signs in with OpenID Connect and
 * lets its people keep passwords; Northwind Secure signs in with SAML and requires it.
 */

let portal: PortalWithCompanySignIn;
let server: PortalServer;

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  portal = await startPortalWithCompanySignIn();
  server = portal.server;
});

test.afterAll(async () => {
  await portal.stop();
});

const employee = (company: keyof typeof companyDomains, givenName?: string) =>
  portal.employee(company, givenName);
const acmeDomain = companyDomains.acme;

/** On SignIn: the address alone, on to the company's provider. */
async function continueWithAddress(page: Page, email: string): Promise<void> {
  await page.goto(`${server.baseURL}/sign-in`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** On SignIn with the address, then on the provider's own page, which asks who they are. */
async function continueToProvider(page: Page, email: string): Promise<void> {
  await continueWithAddress(page, email);
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Health sign-in' })).toBeVisible();
}

/** On the provider's page, as the employee. */
async function signInAtProvider(page: Page, account: OidcAccount): Promise<void> {
  await expect(page.getByLabel('Email address')).toHaveValue(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * A member of Acme's domain with an authenticator app, signed up here, then through Acme's provider
 * as the same address: on CompanySignInLink, asked to prove the account. Answers the app and the
 * recovery codes that came with it.
 */
async function memberWithAppAtLinkPage(page: Page, javaScriptEnabled: boolean, givenName: string) {
  const handle = `${givenName.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}`;
  const person = { ...newPerson(givenName), email: `${handle}@${acmeDomain}` };
  await page.goto(`${server.baseURL}/sign-up`);
  await signUp(page, person);
  await expect(page).toHaveURL(/\/mfa-enrollment$/);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(/\/welcome\/about-us$/);
  await page.goto(`${server.baseURL}/account/security`);
  if (javaScriptEnabled) await waitForHydration(page);
  const factors = await setUpApp(page, javaScriptEnabled);
  await openMemberMenu(page);
  await signOut(page);
  const account: OidcAccount = {
    email: person.email,
    password: 'the-provider-password',
    subject: handle,
    givenName,
    familyName: 'Ellis',
  };
  portal.provider.addAccount(account);

  await continueToProvider(page, person.email);
  await signInAtProvider(page, account);
  await expect(page).toHaveURL(/\/sign-in\/company\/link$/);
  return factors;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test('a first sign-in creates the member, the second signs them in', async ({ page }) => {
      const violations = await recordCspViolations(page);
      const account = employee('acme');
      await continueToProvider(page, account.email);
      await signInAtProvider(page, account);
      await expect(page).toHaveURL(/\/mfa-enrollment$/);
      await page.getByRole('button', { name: 'Skip for now' }).click();
      await expect(page).toHaveURL(/\/welcome\/about-us$/);
      await page.goto(`${server.baseURL}/account/security`);
      await expect(page.getByRole('heading', { name: 'Your company signs you in' })).toBeVisible();
      await expect(page.getByText('Acme Health signs you in to Member Concierge')).toBeVisible();
      await signOut(page);

      // Signed out here, still signed in at the provider: it answers without asking again.
      await continueWithAddress(page, account.email);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back, Jordan');
      expect(violations).toEqual([]);
    });

    test('an existing member links their account with its password', async ({ page }) => {
      const person = {
        ...newPerson('Casey'),
        email: `casey-${crypto.randomUUID().slice(0, 8)}@${acmeDomain}`,
      };
      await page.goto(`${server.baseURL}/sign-up`);
      await signUp(page, person);
      await expect(page).toHaveURL(/\/mfa-enrollment$/);
      await page.getByRole('button', { name: 'Skip for now' }).click();
      await expect(page).toHaveURL(/\/welcome\/about-us$/);
      await openMemberMenu(page);
      await signOut(page);
      const account: OidcAccount = {
        email: person.email,
        password: 'the-provider-password',
        subject: `casey-${crypto.randomUUID().slice(0, 8)}`,
        givenName: 'Casey',
        familyName: 'Quinn',
      };
      portal.provider.addAccount(account);

      await continueToProvider(page, person.email);
      await signInAtProvider(page, account);
      await expect(page).toHaveURL(/\/sign-in\/company\/link$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect your account');
      await expect(
        page.getByText(`You already have an account with ${person.email}`),
      ).toBeVisible();
      await page.getByLabel('Current password').fill('not the password');
      await page.getByRole('button', { name: 'Connect and sign in' }).click();
      await expect(page.getByRole('alert')).toContainText('Your current password is not right.');
      await page.getByLabel('Current password').fill(person.password);
      await page.getByRole('button', { name: 'Connect and sign in' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await signOut(page);

      await continueWithAddress(page, person.email);
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    test('an existing member links their account with a code of their authenticator app', async ({
      page,
    }) => {
      const { app } = await memberWithAppAtLinkPage(page, javaScriptEnabled, 'Robin');
      const otherWays = page.getByRole('navigation', {
        name: 'Another way to show it is your account:',
      });
      await expect(otherWays.getByRole('link', { name: 'Use a recovery code' })).toBeVisible();
      await otherWays.getByRole('link', { name: 'Use your authenticator app' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect your account');
      await expect(
        page.getByText(
          `Enter a code from its authenticator app once, and Acme Health signs you in`,
        ),
      ).toBeVisible();
      await expect(page.getByLabel('Current password')).toHaveCount(0);
      if (javaScriptEnabled) {
        await waitForHydration(page);
        await expectNoAxeViolations(page);
      }

      await page.getByLabel('Code from your authenticator app').fill('000000');
      await page.getByRole('button', { name: 'Connect and sign in' }).click();
      await expect(page.getByRole('alert')).toContainText('Unable to verify MFA token');
      // Refused without JavaScript, the page shows the app's way again, not the password's.
      await expect(page.getByLabel('Current password')).toHaveCount(0);
      await page.getByLabel('Code from your authenticator app').fill(nextCode(app));
      await page.getByRole('button', { name: 'Connect and sign in' }).click();
      // Past the portal's own step: the app's code was it.
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto(`${server.baseURL}/account/security`);
      await expect(page.getByText('Acme Health signs you in to Member Concierge')).toBeVisible();
    });

    test('an existing member links their account with a recovery code, and is told how many are left', async ({
      page,
    }) => {
      const { recoveryCodes } = await memberWithAppAtLinkPage(page, javaScriptEnabled, 'Sam');
      const [code] = recoveryCodes ?? [];
      if (code === undefined) throw new Error('The first app came with no recovery codes.');
      await page
        .getByRole('navigation', { name: 'Another way to show it is your account:' })
        .getByRole('link', { name: 'Use a recovery code' })
        .click();
      if (javaScriptEnabled) await waitForHydration(page);
      await page.getByLabel('Recovery code').fill(code);
      await page.getByRole('button', { name: 'Connect and sign in' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(
        page.getByText('You signed in with a recovery code. You have 9 recovery codes left.'),
      ).toBeVisible();
    });

    test('a company that requires its sign-in refuses the password, and offers only its sign-in', async ({
      page,
    }) => {
      const email = `staff-${crypto.randomUUID().slice(0, 8)}@${companyDomains.northwind}`;
      await page.goto(`${server.baseURL}/forgot-password`);
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expect(page.getByRole('alert')).toContainText(
        'Your company signs you in with your work account, not a password here.',
      );

      await page.goto(`${server.baseURL}/sign-up/northwind`);
      await expect(
        page.getByRole('button', { name: 'Continue with Northwind Secure' }),
      ).toBeVisible();
      await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
      const newcomer = employee('northwind', 'Morgan');
      await page.getByRole('button', { name: 'Continue with Northwind Secure' }).click();
      // Northwind's provider speaks SAML: its page posts the answer back to the portal.
      await expect(
        page.getByRole('heading', { level: 1, name: 'Northwind sign-in' }),
      ).toBeVisible();
      await page.getByLabel('Email address').fill(newcomer.email);
      await page.getByLabel('Password').fill(newcomer.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      if (!javaScriptEnabled) await page.getByRole('button', { name: 'Continue' }).click();
      // Northwind requires a second step: the offer cannot be skipped.
      await expect(page).toHaveURL(/\/mfa-enrollment$/);
      await expect(page.getByRole('button', { name: 'Skip for now' })).toHaveCount(0);
      await page.context().clearCookies();

      // A password typed on SignIn goes nowhere: the address leads to the company's sign-in.
      await page.goto(`${server.baseURL}/sign-in`);
      await page.getByLabel('Email address').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('a password of my own');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(
        page.getByRole('heading', { level: 1, name: 'Northwind sign-in' }),
      ).toBeVisible();
    });
  });
}

test('the pages on the way have no accessibility violations', async ({ page }) => {
  await page.goto(`${server.baseURL}/sign-in/company`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in again');
  await expectNoAxeViolations(page);
  await page.goto(`${server.baseURL}/sign-in/company/link`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect your account');
  await expectNoAxeViolations(page);
});

test('an answer from the provider without this browser’s sign-in is refused on SignIn', async ({
  page,
}) => {
  await page.goto(`${server.baseURL}/sign-in/company/callback?code=stolen&state=stolen`);
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
    'This sign-in with your company has expired or was already used.',
  );
});

test('only the SAML assertion consumer takes a form posted from another site', async () => {
  const fromElsewhere = (path: string) =>
    fetch(`${server.baseURL}${path}`, {
      method: 'POST',
      headers: {
        origin: 'https://provider.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ SAMLResponse: Buffer.from('<nothing/>').toString('base64') }),
      redirect: 'manual',
    });
  // Taken, then refused by the API as no answer to any sign-in: back to SignIn.
  const consumer = await fromElsewhere('/sign-in/company/saml/northwind/acs');
  expect(consumer.status).toBe(303);
  expect(consumer.headers.get('location')).toBe('/sign-in');
  for (const path of [
    '/sign-in/company/callback',
    '/csp-reports',
    '/sign-in?_action=auth.signIn',
  ]) {
    expect((await fromElsewhere(path)).status, path).toBe(403);
  }
});
