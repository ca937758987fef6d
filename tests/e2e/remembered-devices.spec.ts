import { expect, test, type Page } from '@playwright/test';
import { enrollPhone, enterTextedCode, newPerson, signUp } from './support/accounts';
import {
  newMemberOnSecurityPage,
  nextCode,
  notifications,
  setUpApp,
  type App,
} from './support/authenticator-app';
import { expectNoAxeViolations, signIn, signOut, waitForHydration } from './support/journeys';
import { firstSubmitOnFreshServer } from './support/patience';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * Remember this device (docs/PRODUCT.md §11.2): ticked with the code at the MFA step, the browser
 * skips the step at its next sign-ins for 30 days, never the password; Devices lists it and
 * forgets it; a password change forgets them all; a token the API does not know is refused and
 * forgotten. A server of this file's own: it reads the outbox.
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

const rememberBox = (page: Page) =>
  page.getByRole('checkbox', { name: /Remember this device for 30 days/ });

/** Signs out, then in with the password, and answers where the browser lands. */
async function signOutAndIn(page: Page, person: Person): Promise<void> {
  await signOut(page);
  await expect(page).toHaveURL(`${origin}/sign-in`);
  await signIn(page, person);
}

/** At the MFA step with the app: its code, and the box ticked or not. */
async function enterAppCode(page: Page, app: App, remember: boolean, javaScriptEnabled: boolean) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your sign-in code');
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(rememberBox(page)).not.toBeChecked();
  if (remember) await rememberBox(page).check();
  await page.getByLabel('Code from your authenticator app').fill(nextCode(app));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(`${origin}/dashboard`);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('a remembered browser skips the code, not the password, until Devices forgets it', async ({
      page,
      browser,
    }) => {
      const person = await newMemberOnSecurityPage(
        page,
        origin,
        javaScriptEnabled ? 'Harper' : 'Indigo',
        javaScriptEnabled,
      );
      const { app } = await setUpApp(page, javaScriptEnabled);

      // The box starts unticked; ticked, it remembers this browser. (One code a sign-in: the
      // app's codes are a step of 30 seconds apart, and each is taken once.)
      await signOutAndIn(page, person);
      await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
      if (javaScriptEnabled) {
        await waitForHydration(page);
        await expectNoAxeViolations(page);
      }
      await enterAppCode(page, app, true, javaScriptEnabled);

      // Remembered: the password alone signs in here, sign-out after sign-out.
      await signOutAndIn(page, person);
      await expect(page).toHaveURL(`${origin}/dashboard`);
      await signOutAndIn(page, person);
      await expect(page).toHaveURL(`${origin}/dashboard`);

      // A wrong password is still refused.
      await signOut(page);
      await signIn(page, { ...person, password: 'not the password at all' });
      await expect(page).toHaveURL(/\/sign-in/);

      // Another browser is not remembered.
      const elsewhere = await (await browser.newContext({ javaScriptEnabled })).newPage();
      await elsewhere.goto(`${origin}/sign-in`);
      await signIn(elsewhere, person);
      await expect(elsewhere).toHaveURL(`${origin}/mfa-enrollment`);

      // Devices lists the remembered browser and forgets it.
      await signIn(page, person);
      await expect(page).toHaveURL(`${origin}/dashboard`);
      await page.goto(`${origin}/account/devices`);
      const section = page.getByRole('region', { name: 'Remembered devices' });
      await expect(section.getByRole('listitem')).toHaveCount(1);
      await expect(section.getByText('Until', { exact: true })).toBeVisible();
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      await section.getByRole('button', { name: 'Forget this device' }).click();
      await expect(
        notifications(page).getByText(
          'That device is forgotten: its next sign-in will ask for a code.',
        ),
      ).toBeVisible();
      await expect(
        page
          .getByRole('region', { name: 'Remembered devices' })
          .getByText('No device is remembered.'),
      ).toBeVisible();
      await signOutAndIn(page, person);
      await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
    });
  });
}

test('a password change forgets every remembered device', async ({ page }) => {
  const person = await newMemberOnSecurityPage(page, origin, 'Jules', true);
  const { app } = await setUpApp(page, true);
  await signOutAndIn(page, person);
  await enterAppCode(page, app, true, true);

  await page.goto(`${origin}/account/security`);
  await waitForHydration(page);
  const passwordForm = page.getByRole('region', { name: 'Change your password' });
  const changed = 'another long enough passphrase';
  await passwordForm.getByLabel('Current password').fill(person.password);
  await passwordForm.getByLabel('New password').fill(changed);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    notifications(page).getByText('Your password has been changed.', { exact: true }),
  ).toBeVisible();
  await waitForHydration(page);

  await signOutAndIn(page, { ...person, password: changed });
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
});

test('a token the portal never gave is refused, asks for the step, and is forgotten', async ({
  page,
  context,
}) => {
  const person = await newMemberOnSecurityPage(page, origin, 'Kit', true);
  await setUpApp(page, true);
  await signOut(page);
  await expect(page).toHaveURL(`${origin}/sign-in`);
  await context.addCookies([
    {
      name: 'remembered_device',
      value: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      url: origin,
    },
  ]);
  await signIn(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  const cookies = await context.cookies(origin);
  expect(cookies.map((cookie) => cookie.name)).not.toContain('remembered_device');
});

test('a member with a phone ticks the box with the texted code', async ({ page }) => {
  const person = newPerson('Lane');
  await page.goto(`${origin}/sign-up`);
  await signUp(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSubmitOnFreshServer);
  await waitForHydration(page);
  // Enrolling a phone is a first step, not a habit of this browser: no box there.
  await expect(rememberBox(page)).toHaveCount(0);
  await enrollPhone(page, '(555) 010-4477');
  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  await page.goto(`${origin}/dashboard`);

  await signOutAndIn(page, person);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get your sign-in code');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await rememberBox(page).check();
  await enterTextedCode(page, '77');
  await expect(page).toHaveURL(`${origin}/dashboard`);

  await signOutAndIn(page, person);
  await expect(page).toHaveURL(`${origin}/dashboard`);
});

test('the box’s warning about shared computers is shown whole on a laptop’s screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${origin}/sign-in`);
  await signIn(page, { email: 'verified@example.com', password: 'portal-demo-2026' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get your sign-in code');
  await waitForHydration(page);
  // The box comes with the field for the code.
  await page.getByRole('button', { name: 'Text me a code' }).click();
  const hint = page.getByText(
    'Signing in here will take only your password until then. Leave this off on a shared computer.',
    { exact: true },
  );
  await expect(hint).toBeVisible();
  await expect(rememberBox(page)).toHaveAccessibleName(/Leave this off on a shared computer\.$/);

  const shown = await hint.evaluate((element) => {
    const style = getComputedStyle(element);
    const text = document.createRange();
    text.selectNodeContents(element);
    const words = text.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    const chip = element.closest('label')?.getBoundingClientRect();
    return {
      lineClamp: style.webkitLineClamp,
      textOverflow: style.textOverflow,
      overflowsItsBox:
        element.scrollHeight > element.clientHeight || element.scrollWidth > element.clientWidth,
      wordsInsideBox: words.top >= box.top && words.bottom <= box.bottom + 0.5,
      boxInsideChip: chip !== undefined && box.top >= chip.top && box.bottom <= chip.bottom + 0.5,
    };
  });
  expect(shown).toEqual({
    lineClamp: 'none',
    textOverflow: 'clip',
    overflowsItsBox: false,
    wordsInsideBox: true,
    boxInsideChip: true,
  });
});
