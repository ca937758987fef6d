import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { expect, test, type Page } from '@playwright/test';
import { totpCodeAt, totpStep } from '../../api/services/totp.ts';
import { enterTextedCode, newPerson, signUp } from './support/accounts';
import { newestEmail } from './support/inbox';
import { expectNoAxeViolations, signIn, signOut, waitForHydration } from './support/journeys';
import { firstSubmitOnFreshServer } from './support/patience';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * The authenticator app (docs/PRODUCT.md §11.2): set up from Sign-in and security (a QR code and a
 * key to type, confirmed by the app's first code), asked for at the next sign-in, a code used
 * once, removed with the password. The test is the member's phone: it computes the codes from the
 * key the page shows. A server of this file's own: it reads the outbox.
 */
let server: PortalServer;
let origin: string;

test.beforeAll(async () => {
  server = await startPortalServer({ env: { OUTBOX_VIEWER: 'true' } });
  origin = server.baseURL;
});

test.afterAll(async () => {
  await server.stop();
});

const appSection = (page: Page) => page.getByRole('region', { name: 'Authenticator app' });
const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });

/** What the member's app knows: the key, and the last step whose code was used. */
interface App {
  readonly key: Uint8Array;
  lastStep: number;
}

/** The code the app shows now, never one of a step already used (the API refuses those). */
function nextCode(app: App): string {
  const step = Math.max(totpStep(new Date()), app.lastStep + 1);
  app.lastStep = step;
  return totpCodeAt(app.key, step);
}

async function newMemberOnSecurityPage(page: Page, firstName: string, javaScriptEnabled: boolean) {
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

/** Presses "Set up", reads the key as a person would type it, and enters the app's first code. */
async function setUpApp(page: Page, javaScriptEnabled: boolean): Promise<App> {
  const section = appSection(page);
  await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
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
  await expect(
    notifications(page).getByText(
      'Your authenticator app is set up: signing in can now take a code from it.',
    ),
  ).toBeVisible();
  await expect(
    appSection(page).getByText('On: each sign-in can take a code from your authenticator app'),
  ).toBeVisible();
  return app;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('a member sets up an app, a sign-in elsewhere takes its code once, and the password removes it', async ({
      page,
      browser,
    }) => {
      const person = await newMemberOnSecurityPage(
        page,
        javaScriptEnabled ? 'Quinn' : 'Sasha',
        javaScriptEnabled,
      );
      const app = await setUpApp(page, javaScriptEnabled);
      const added = await newestEmail(page, origin, {
        to: person.email,
        subject: /An authenticator app was added/,
      });
      await expect(added).toContainText('If you did not add it, reset your password at once');

      /** A sign-in on another device, up to its MFA step. */
      const signInElsewhere = async () => {
        const device = await browser.newContext({ javaScriptEnabled });
        const other = await device.newPage();
        await other.goto(`${origin}/sign-in`);
        await signIn(other, person);
        await expect(other).toHaveURL(`${origin}/mfa-enrollment`);
        await expect(other.getByRole('heading', { level: 1 })).toHaveText(
          'Enter your sign-in code',
        );
        if (javaScriptEnabled) await waitForHydration(other);
        return other;
      };

      // The next sign-in asks for the app's code, and takes it.
      const laptop = await signInElsewhere();
      await expect(laptop.getByRole('link', { name: 'Text me a code instead' })).toHaveCount(0);
      if (javaScriptEnabled) await expectNoAxeViolations(laptop);
      const code = nextCode(app);
      await laptop.getByLabel('Code from your authenticator app').fill(code);
      await laptop.getByRole('button', { name: 'Verify' }).click();
      await expect(laptop).toHaveURL(`${origin}/dashboard`);

      // The same code, in another sign-in, is refused.
      const stranger = await signInElsewhere();
      await stranger.getByLabel('Code from your authenticator app').fill(code);
      await stranger.getByRole('button', { name: 'Verify' }).click();
      await expect(stranger.getByText('There is a problem')).toBeVisible();
      await expect(stranger).toHaveURL(/\/mfa-enrollment/);

      // Removed with the password: the next sign-in asks for no code.
      await page.goto(`${origin}/account/security`);
      if (javaScriptEnabled) await waitForHydration(page);
      const section = appSection(page);
      await section.getByLabel('Current password').fill(person.password);
      await section.getByRole('button', { name: 'Remove the authenticator app' }).click();
      await expect(
        notifications(page).getByText(
          'The authenticator app is removed: its codes no longer sign you in.',
        ),
      ).toBeVisible();
      await expect(
        appSection(page).getByRole('button', { name: 'Set up an authenticator app' }),
      ).toBeVisible();
      const removed = await newestEmail(page, origin, {
        to: person.email,
        subject: /The authenticator app was removed/,
      });
      await expect(removed).toBeVisible();
      await page.goto(`${origin}/dashboard`);
      await signOut(page);
      await signIn(page, person);
      await expect(page).not.toHaveURL(/\/mfa-enrollment/);
    });
  });
}

test('a member with an app and a phone is asked for the app’s code first, and may ask for a text instead', async ({
  page,
}) => {
  const person = await newMemberOnSecurityPage(page, 'Rory', true);
  await setUpApp(page, true);
  const twoStep = page.getByRole('region', { name: 'Two-step verification' });
  await expect(twoStep.getByText('Your authenticator app gives your sign-in codes.')).toBeVisible();
  await twoStep.getByLabel('Mobile phone number').fill('(555) 010-4485');
  await twoStep.getByRole('button', { name: 'Text a code to this number' }).click();
  await enterTextedCode(page, '85', 'Turn on two-step verification');
  await expect(
    notifications(page).getByText('Your sign-in codes now go to the phone number ending 85.'),
  ).toBeVisible();

  await signOut(page);
  await signIn(page, person);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your sign-in code');
  await page.getByRole('link', { name: 'Text me a code instead' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get your sign-in code');
  await expect(page.getByRole('link', { name: 'Use my authenticator app instead' })).toBeVisible();
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await enterTextedCode(page, '85');
  await expect(page).toHaveURL(`${origin}/dashboard`);
});
