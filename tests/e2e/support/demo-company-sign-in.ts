import { expect, type Page } from '@playwright/test';
import { DEMO_COMPANY_SIGN_IN } from '../../../api/demo/demo-accounts.ts';
import { member } from './journeys';

/** The demo company's employee, as printed at start: an account of its provider alone at first. */
export const demoEmployee = {
  email: DEMO_COMPANY_SIGN_IN.employee.email,
  password: member.password,
  givenName: DEMO_COMPANY_SIGN_IN.employee.givenName,
  companyName: DEMO_COMPANY_SIGN_IN.companyName,
};

/** The printed line that names the demo employee, as `npm start` and `npm run dev` print it. */
export const demoEmployeeLine = new RegExp(
  `^ {2}${demoEmployee.email.replaceAll('.', '\\.')} +${demoEmployee.password} +Employee of ${demoEmployee.companyName}`,
  'mu',
);

/**
 * On SignIn at `origin`, the employee's address alone, then their password on the provider's own
 * page, as a newcomer trying the demo would. `timeout`: the development server compiles pages as
 * they are first asked for.
 */
export async function signInAsDemoEmployee(
  page: Page,
  origin: string,
  { timeout = 5_000 }: { timeout?: number } = {},
): Promise<void> {
  await page.goto(`${origin}/sign-in`);
  await page.getByLabel('Email address').fill(demoEmployee.email);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: `${demoEmployee.companyName} sign-in` }),
  ).toBeVisible({ timeout });
  await expect(page.getByLabel('Email address')).toHaveValue(demoEmployee.email);
  await page.getByLabel('Password').fill(demoEmployee.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
