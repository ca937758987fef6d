import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { expect, type Page } from '@playwright/test';
import { totpCodeAt, totpStep } from '../../../api/services/factors/totp.ts';
import { newPerson, signUp } from './accounts';
import { expectNoAxeViolations, waitForHydration } from './journeys';
import { firstSubmitOnFreshServer } from './patience';

/**
 * The member's authenticator app, played by the test: it computes the codes from the key the page
 * shows, as a phone would (docs/PRODUCT.md §11.2).
 */

export const appSection = (page: Page) => page.getByRole('region', { name: 'Authenticator app' });
export const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });

/** What the member's app knows: the key, and the last step whose code was used. */
export interface App {
  readonly key: Uint8Array;
  lastStep: number;
}

/** The code the app shows now, never one of a step already used (the API refuses those). */
export function nextCode(app: App): string {
  const step = Math.max(totpStep(new Date()), app.lastStep + 1);
  app.lastStep = step;
  return totpCodeAt(app.key, step);
}

/** A new member who declined the phone at sign-up, on Sign-in and security. */
export async function newMemberOnSecurityPage(
  page: Page,
  origin: string,
  firstName: string,
  javaScriptEnabled: boolean,
) {
  const person = newPerson(firstName);
  await page.goto(`${origin}/sign-up`);
  await signUp(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSubmitOnFreshServer);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  await page.goto(`${origin}/account/security`);
  if (javaScriptEnabled) await waitForHydration(page);
  return person;
}

/** The recovery codes the page shows once, as the member reads them. */
export async function shownRecoveryCodes(page: Page): Promise<string[]> {
  const list = page.getByRole('region', { name: 'Your recovery codes' });
  await expect(list).toBeVisible();
  const codes = await list.getByRole('listitem').allInnerTexts();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  return codes;
}

/**
 * Presses "Set up", reads the key as a person would type it, and enters the app's first code. The
 * member's first strong factor comes with recovery codes, answered here; a later app's does not.
 */
export async function setUpApp(
  page: Page,
  javaScriptEnabled: boolean,
  { leaveCodesShown = false }: { leaveCodesShown?: boolean } = {},
): Promise<{ app: App; recoveryCodes: string[] | undefined }> {
  const section = appSection(page);
  const firstFactor = await section
    .getByRole('button', { name: 'Set up an authenticator app' })
    .isVisible();
  await section.getByRole('button', { name: /^Set up (an|another) / }).click();
  await expect(section.getByRole('img', { name: /QR code/ })).toBeVisible();
  const typed = await section.getByText('Cannot scan it?').locator('code').innerText();
  expect(typed).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  const app: App = { key: decodeBase32IgnorePadding(typed.replaceAll(' ', '')), lastStep: 0 };
  if (javaScriptEnabled) {
    await waitForHydration(page);
    await expectNoAxeViolations(page);
  }

  // A wrong code first: refused under the field, the app not set up.
  await section.getByLabel('Code from your authenticator app').fill('000000');
  await section.getByRole('button', { name: 'Turn on the authenticator app' }).click();
  await expect(page.getByText('There is a problem')).toBeVisible();

  await page.getByLabel('Code from your authenticator app').fill(nextCode(app));
  await page.getByRole('button', { name: 'Turn on the authenticator app' }).click();
  let recoveryCodes: string[] | undefined;
  const added = 'Your authenticator app is set up: signing in can now take a code from it.';
  if (firstFactor) {
    // The change in words, and every section of the page as the account now is.
    await expect(appSection(page).getByText(added)).toBeVisible();
    await expect(page.getByRole('img', { name: /QR code/ })).toHaveCount(0);
    await expect(
      page
        .getByRole('region', { name: 'Two-step verification' })
        .getByText('Your authenticator app gives your sign-in codes.'),
    ).toBeVisible();
    await expect(page.getByText('Off: your password alone signs you in.')).toHaveCount(0);
    recoveryCodes = await shownRecoveryCodes(page);
    if (javaScriptEnabled) await expectNoAxeViolations(page);
    if (leaveCodesShown) return { app, recoveryCodes };
    await page.getByRole('link', { name: 'I have saved my codes' }).click();
  } else {
    await expect(notifications(page).getByText(added)).toBeVisible();
  }
  await expect(
    appSection(page).getByText('On: each sign-in can take a code from your authenticator app'),
  ).toBeVisible();
  if (javaScriptEnabled) await waitForHydration(page);
  return { app, recoveryCodes };
}
