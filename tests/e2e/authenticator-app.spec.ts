import { expect, test } from '@playwright/test';
import { enterTextedCode } from './support/accounts';
import {
  appSection,
  newMemberOnSecurityPage,
  nextCode,
  notifications,
  setUpApp,
} from './support/authenticator-app';
import { newestEmail } from './support/inbox';
import { expectNoAxeViolations, signIn, signOut, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * The authenticator app (docs/PRODUCT.md §11.2): set up from Sign-in and security (a QR code and a
 * key to type, confirmed by the app's first code), asked for at the next sign-in, a code used
 * once, removed with the password. The test is the member's phone: it computes the codes from the
 * key the page shows. A server of this file's own: it reads the outbox.
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

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('a member sets up an app, a sign-in elsewhere takes its code once, and the password removes it', async ({
      page,
      browser,
    }) => {
      const person = await newMemberOnSecurityPage(
        page,
        origin,
        javaScriptEnabled ? 'Quinn' : 'Sasha',
        javaScriptEnabled,
      );
      const { app, recoveryCodes } = await setUpApp(page, javaScriptEnabled);
      expect(recoveryCodes).toHaveLength(10);
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
      // No phone: the only other way is a recovery code.
      await expect(laptop.getByRole('navigation', { name: 'Another way to verify:' })).toHaveText(
        /Use a recovery code/,
      );
      await expect(laptop.getByRole('link', { name: 'Text a code to my phone' })).toHaveCount(0);
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

test('a member with an app and a phone is asked first for the way used last, and may pick another', async ({
  page,
}) => {
  const person = await newMemberOnSecurityPage(page, origin, 'Rory', true);
  const { app } = await setUpApp(page, true);
  const twoStep = page.getByRole('region', { name: 'Two-step verification' });
  await expect(twoStep.getByText('Your authenticator app gives your sign-in codes.')).toBeVisible();
  await twoStep.getByLabel('Mobile phone number').fill('(555) 010-4485');
  await twoStep.getByRole('button', { name: 'Text a code to this number' }).click();
  await enterTextedCode(page, '85', 'Turn on two-step verification');
  await expect(
    notifications(page).getByText('Your sign-in codes now go to the phone number ending 85.'),
  ).toBeVisible();

  // The phone was confirmed last: the next sign-in offers a text first.
  await signOut(page);
  await signIn(page, person);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get your sign-in code');
  const otherWays = page.getByRole('navigation', { name: 'Another way to verify:' });
  await expect(otherWays.getByRole('link')).toHaveText([
    'Use my authenticator app',
    'Use a recovery code',
  ]);
  await otherWays.getByRole('link', { name: 'Use my authenticator app' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your sign-in code');
  await waitForHydration(page);
  await page.getByLabel('Code from your authenticator app').fill(nextCode(app));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(`${origin}/dashboard`);

  // The app was used last: now it comes first, and a text is one link away.
  await signOut(page);
  await signIn(page, person);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your sign-in code');
  await page.getByRole('link', { name: 'Text a code to my phone' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get your sign-in code');
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await enterTextedCode(page, '85');
  await expect(page).toHaveURL(`${origin}/dashboard`);

  // With the app in place, the phone can go alone; the app still signs in.
  await page.goto(`${origin}/account/security`);
  await waitForHydration(page);
  const removal = page.getByRole('region', { name: 'Two-step verification' });
  await removal.getByLabel('Current password').first().fill(person.password);
  await removal.getByRole('button', { name: 'Remove this phone' }).click();
  await expect(
    notifications(page).getByText(
      'The phone is removed: codes are no longer texted to it when you sign in.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove this phone' })).toHaveCount(0);
  await signOut(page);
  await signIn(page, person);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter your sign-in code');
  await expect(page.getByRole('link', { name: 'Text a code to my phone' })).toHaveCount(0);
});
