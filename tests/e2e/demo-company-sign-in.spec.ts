import { expect, test } from '@playwright/test';
import {
  demoEmployee,
  demoEmployeeLine,
  signInAsDemoEmployee,
} from './support/demo-company-sign-in';
import { signOut } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * The newcomer's demo of company sign-in (docs/PRODUCT.md §15): `npm start` on this machine starts
 * the demo company's own development provider and prints its employee beside the demo accounts;
 * a production start never does (start-up.spec.ts), and without it the company's address asks
 * for a password (tests/api/demo-company-sign-in.test.ts).
 */

let server: PortalServer;
/** Where a newcomer opens the portal: the address it prints, whose name the provider returns to. */
let printedAddress: string;

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  server = await startPortalServer({
    env: { DEMO_COMPANY_SIGN_IN: 'true', PUBLIC_ORIGIN: undefined },
  });
  printedAddress = `http://localhost:${new URL(server.baseURL).port}`;
});

test.afterAll(async () => {
  await server.stop();
});

test('npm start prints the demo company’s employee beside the demo accounts', () => {
  expect(server.output()).toMatch(demoEmployeeLine);
});

test('the printed employee signs in through the company’s provider, a member from then on', async ({
  page,
}) => {
  await signInAsDemoEmployee(page, printedAddress);
  await expect(page).toHaveURL(/\/mfa-enrollment$/);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(/\/welcome\/about-us$/);
  await page.goto(`${printedAddress}/account/security`);
  await expect(page.getByRole('heading', { name: 'Your company signs you in' })).toBeVisible();
  await expect(
    page.getByText(`${demoEmployee.companyName} signs you in to Member Concierge`),
  ).toBeVisible();
  await signOut(page);

  // Still signed in at the provider, which answers at once.
  await page.goto(`${printedAddress}/sign-in`);
  await page.getByLabel('Email address').fill(demoEmployee.email);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Welcome back, ${demoEmployee.givenName}`,
  );
});
