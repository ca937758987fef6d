import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { newestCode } from './inbox';

/** A person who does not have an account yet, with an address no other test uses. */
export function newPerson(firstName = 'Robin') {
  return {
    firstName,
    lastName: 'Quinn',
    email: `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
    password: 'a long enough passphrase',
  };
}

/** Fills the sign-up form as a person would and submits it. */
export async function signUp(
  page: Page,
  person: ReturnType<typeof newPerson>,
  { acceptTerms = true }: { acceptTerms?: boolean } = {},
): Promise<void> {
  await page.getByLabel('First name').fill(person.firstName);
  await page.getByLabel('Last name').fill(person.lastName);
  await page.getByLabel('Email address').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  if (acceptTerms) {
    await page.getByRole('checkbox', { name: /^I accept the terms of service/ }).check();
  }
  await page.getByRole('button', { name: 'Create account' }).click();
}

/**
 * Enrolls a phone on the MFA page, reading the texted code from the outbox in another tab, as a
 * person looks at their phone.
 */
export async function enrollPhone(page: Page, phone: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Protect your account');
  await page.getByLabel('Mobile phone number').fill(phone);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await enterTextedCode(page, phone.replace(/\D/g, '').slice(-2));
}

/**
 * Enters the newest code texted to the phone ending in `lastDigits`, and presses the button that
 * checks it (`Verify` at sign-in).
 */
export async function enterTextedCode(
  page: Page,
  lastDigits: string,
  submitLabel = 'Verify',
): Promise<void> {
  await expect(page.getByLabel('Code', { exact: true })).toBeVisible();
  const phone = await page.context().newPage();
  const code = await newestCode(phone, new URL(page.url()).origin, lastDigits);
  await phone.close();
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: submitLabel }).click();
}
