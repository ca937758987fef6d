import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { newMemberOnSecurityPage, setUpApp, shownRecoveryCodes } from './support/authenticator-app';
import { newestEmail } from './support/inbox';
import { signIn, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * Recovery codes (docs/PRODUCT.md §11.2): ten made with the member's first authenticator app and
 * shown once, saved by download; one signs in once in place of the app, says how many are left and
 * is emailed; new ones from Sign-in and security end the old. A server of this file's own: it
 * reads the outbox.
 */
let server: PortalServer;
let origin: string;

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  server = await startPortalServer({ env: { OUTBOX_VIEWER: 'true' } });
  origin = server.baseURL;
});

test.afterAll(async () => {
  await server.stop();
});

type Person = Awaited<ReturnType<typeof newMemberOnSecurityPage>>;

/** Signs in with the password on a device of its own, and enters `code` as a recovery code. */
async function signInWithRecoveryCode(
  browser: Browser,
  person: Person,
  code: string,
  javaScriptEnabled: boolean,
): Promise<Page> {
  const device = await browser.newContext({ javaScriptEnabled });
  const page = await device.newPage();
  await page.goto(`${origin}/sign-in`);
  await signIn(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  await page.getByRole('link', { name: 'Use a recovery code' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter a recovery code');
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel('Recovery code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  return page;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('the first app comes with ten codes; one signs in once, says how many are left, and is emailed', async ({
      page,
      browser,
    }) => {
      const person = await newMemberOnSecurityPage(
        page,
        origin,
        javaScriptEnabled ? 'Avery' : 'Blair',
        javaScriptEnabled,
      );
      const { recoveryCodes } = await setUpApp(page, javaScriptEnabled);
      const [first, second] = recoveryCodes ?? [];
      if (!first || !second) throw new Error('No recovery codes were shown');

      // Typed the way people copy codes: capitals, a space for the hyphen.
      const laptop = await signInWithRecoveryCode(
        browser,
        person,
        first.toUpperCase().replace('-', ' '),
        javaScriptEnabled,
      );
      await expect(laptop).toHaveURL(`${origin}/dashboard`);
      await expect(
        laptop.getByText('You signed in with a recovery code. You have 9 recovery codes left.'),
      ).toBeVisible();
      const used = await newestEmail(page, origin, {
        to: person.email,
        subject: /A recovery code was used/,
      });
      await expect(used).toContainText('9');

      // The same code a second time is refused, and the step stays.
      const stranger = await signInWithRecoveryCode(browser, person, first, javaScriptEnabled);
      await expect(stranger.getByText('There is a problem')).toBeVisible();
      await expect(
        stranger.getByText('That recovery code is not right, or it has been used already.'),
      ).toBeVisible();
      await expect(stranger).toHaveURL(/\/mfa-enrollment/);

      // Not a code at all: said under the field, before the API is asked.
      await stranger.getByLabel('Recovery code').fill('12345');
      await stranger.getByRole('button', { name: 'Verify' }).click();
      await expect(
        stranger.getByText('A recovery code is 10 letters and numbers, like abcde-23456').first(),
      ).toBeVisible();

      // Another unused code still works.
      const phone = await signInWithRecoveryCode(browser, person, second, javaScriptEnabled);
      await expect(phone).toHaveURL(`${origin}/dashboard`);
    });

    test('new codes need the password, are shown once, and end the old ones', async ({
      page,
      browser,
    }) => {
      const person = await newMemberOnSecurityPage(
        page,
        origin,
        javaScriptEnabled ? 'Cory' : 'Dale',
        javaScriptEnabled,
      );
      const { recoveryCodes: old } = await setUpApp(page, javaScriptEnabled);
      const section = page.getByRole('region', { name: 'Recovery codes' });
      await expect(section.getByText('You have 10 unused recovery codes.')).toBeVisible();

      await section.getByLabel('Current password').fill('not my password at all');
      await section.getByRole('button', { name: 'Make new recovery codes' }).click();
      await expect(page.getByText('There is a problem')).toBeVisible();
      await expect(page.getByLabel('Current password').last()).toHaveValue('');

      await page
        .getByRole('region', { name: 'Recovery codes' })
        .getByLabel('Current password')
        .fill(person.password);
      await page
        .getByRole('region', { name: 'Recovery codes' })
        .getByRole('button', { name: 'Make new recovery codes' })
        .click();
      const renewed = await shownRecoveryCodes(page);
      expect(renewed).not.toContain(old?.[0]);
      const email = await newestEmail(page, origin, {
        to: person.email,
        subject: /New recovery codes/,
      });
      await expect(email).toBeVisible();

      const refused = await signInWithRecoveryCode(
        browser,
        person,
        old?.[0] ?? '',
        javaScriptEnabled,
      );
      await expect(refused.getByText('There is a problem')).toBeVisible();
      await refused.getByLabel('Recovery code').fill(renewed[0] ?? '');
      await refused.getByRole('button', { name: 'Verify' }).click();
      await expect(refused).toHaveURL(`${origin}/dashboard`);
    });
  });
}

test('the codes download as a text file, and print alone', async ({ page }) => {
  await newMemberOnSecurityPage(page, origin, 'Ellis', true);
  const { recoveryCodes } = await setUpApp(page, true, { leaveCodesShown: true });
  await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Print the codes' })).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download the codes' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('member-concierge-recovery-codes.txt');
  const saved = await readFile(await download.path(), 'utf8');
  for (const code of recoveryCodes ?? []) expect(saved).toContain(code);

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Download the codes' })).toBeHidden();
});
