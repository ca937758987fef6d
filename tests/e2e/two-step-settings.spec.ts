import { expect, test, type Page } from '@playwright/test';
import { enrollPhone, enterTextedCode, newPerson, signUp } from './support/accounts';
import { newestEmail } from './support/inbox';
import { expectNoAxeViolations, signIn, signOut, waitForHydration } from './support/journeys';
import { firstSubmitOnFreshServer } from './support/patience';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * The phone of two-step verification from the Account area (docs/PRODUCT.md §11.2): turned on
 * after the offer was skipped, replaced by another number, turned off with the password, kept on
 * where the company requires it. Codes and emails are read from the outbox. A server of this
 * file's own: every journey texts codes, and each phone's last two digits are this file's alone.
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

const twoStepSection = (page: Page) => page.getByRole('region', { name: 'Two-step verification' });
const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });

/** A new member who signs up and either skips the phone offer or enrolls `phone`. */
async function newMember(
  page: Page,
  firstName: string,
  { phone, javaScriptEnabled = true }: { phone?: string; javaScriptEnabled?: boolean } = {},
) {
  const person = newPerson(firstName);
  await page.goto(`${origin}/sign-up`);
  await signUp(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSubmitOnFreshServer);
  if (javaScriptEnabled) await waitForHydration(page);
  if (phone) {
    await enrollPhone(page, phone);
  } else {
    await page.getByRole('button', { name: 'Skip for now' }).click();
  }
  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  return person;
}

async function openSecurity(page: Page, javaScriptEnabled: boolean) {
  await page.goto(`${origin}/account/security`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign-in and security');
  if (javaScriptEnabled) await waitForHydration(page);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });
    const digits = javaScriptEnabled
      ? { first: '41', second: '52' }
      : { first: '63', second: '74' };

    test('a member who skipped the offer turns two-step verification on, and the next sign-in asks for a code', async ({
      page,
    }) => {
      const person = await newMember(page, javaScriptEnabled ? 'Harper' : 'Emery', {
        javaScriptEnabled,
      });
      await openSecurity(page, javaScriptEnabled);
      const section = twoStepSection(page);
      await expect(section.getByText('Off: your password alone signs you in.')).toBeVisible();
      await expect(
        section.getByRole('button', { name: 'Turn off two-step verification' }),
      ).toHaveCount(0);
      if (javaScriptEnabled) await expectNoAxeViolations(page);

      // A number that is not one is refused under its field.
      await section.getByLabel('Mobile phone number').fill('555 12');
      await section.getByRole('button', { name: 'Text a code to this number' }).click();
      await expect(page.getByText('There is a problem')).toBeVisible();
      await expect(
        twoStepSection(page).getByText(
          'Enter a US mobile number with its area code, like (555) 123-4567',
        ),
      ).toHaveCount(2);

      await twoStepSection(page)
        .getByLabel('Mobile phone number')
        .fill(`(555) 010-33${digits.first}`);
      await twoStepSection(page)
        .getByRole('button', { name: 'Text a code to this number' })
        .click();
      await expect(
        twoStepSection(page).getByText(`the phone number ending in ${digits.first}`),
      ).toBeAttached();
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      await enterTextedCode(page, digits.first, 'Turn on two-step verification');

      await expect(page).toHaveURL(`${origin}/account/security`);
      await expect(
        notifications(page).getByText(
          `Your sign-in codes now go to the phone number ending ${digits.first}.`,
        ),
      ).toBeVisible();
      await expect(twoStepSection(page).getByText(`(•••) •••-••${digits.first}`)).toBeVisible();
      const email = await newestEmail(page, origin, {
        to: person.email,
        subject: /^Two-step verification is on/,
      });
      await expect(email).toContainText(`the phone number ending ${digits.first}.`);

      await page.goto(`${origin}/dashboard`);
      await signOut(page);
      await signIn(page, person);
      await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get your sign-in code');
      await expect(page.getByText(`(•••) •••-••${digits.first}`)).toBeVisible();
    });

    test('a member moves the codes to a new phone once its code is entered, and is told by email', async ({
      page,
    }) => {
      const person = await newMember(page, javaScriptEnabled ? 'Sage' : 'Rowan', {
        phone: `(555) 020-44${digits.first}`,
        javaScriptEnabled,
      });
      await openSecurity(page, javaScriptEnabled);
      await expect(twoStepSection(page).getByText(`(•••) •••-••${digits.first}`)).toBeVisible();
      if (javaScriptEnabled) await expectNoAxeViolations(page);

      await twoStepSection(page)
        .getByLabel('New mobile phone number')
        .fill(`(555) 020-44${digits.second}`);
      await twoStepSection(page)
        .getByRole('button', { name: 'Text a code to this number' })
        .click();
      // A wrong code changes nothing.
      await twoStepSection(page).getByLabel('Code').fill('000000');
      await twoStepSection(page).getByRole('button', { name: 'Use this phone' }).click();
      await expect(page.getByText('Unable to verify MFA token').first()).toBeVisible();
      // The enrolled phone keeps its place until the right code is entered.
      const elsewhere = await page.context().newPage();
      await elsewhere.goto(`${origin}/account/security`);
      await expect(
        twoStepSection(elsewhere).getByText(`(•••) •••-••${digits.first}`),
      ).toBeVisible();
      await elsewhere.close();

      await enterTextedCode(page, digits.second, 'Use this phone');

      await expect(
        notifications(page).getByText(
          `Your sign-in codes now go to the phone number ending ${digits.second}.`,
        ),
      ).toBeVisible();
      await expect(twoStepSection(page).getByText(`(•••) •••-••${digits.second}`)).toBeVisible();
      // The session stays signed in: its new mfa token was kept.
      await page.goto(`${origin}/dashboard`);
      await expect(page).toHaveURL(`${origin}/dashboard`);
      const email = await newestEmail(page, origin, {
        to: person.email,
        subject: /sign-in codes go to a new phone$/,
      });
      await expect(email).toContainText(`now go to the phone number ending ${digits.second};`);
    });

    test('a member turns two-step verification off with the current password, and signs in with the password alone', async ({
      page,
    }) => {
      const third = javaScriptEnabled ? '85' : '96';
      const person = await newMember(page, javaScriptEnabled ? 'Quinn' : 'Avery', {
        phone: `(555) 030-55${third}`,
        javaScriptEnabled,
      });
      await openSecurity(page, javaScriptEnabled);
      const section = twoStepSection(page);

      await section.getByLabel('Current password').fill('not my password');
      await section.getByRole('button', { name: 'Turn off two-step verification' }).click();
      await expect(
        twoStepSection(page).getByText('Your current password is not right.').first(),
      ).toBeVisible();
      await expect(twoStepSection(page).getByLabel('Current password')).toHaveValue('');

      await twoStepSection(page).getByLabel('Current password').fill(person.password);
      await twoStepSection(page)
        .getByRole('button', { name: 'Turn off two-step verification' })
        .click();

      await expect(
        notifications(page).getByText(
          'Two-step verification is off. Signing in now takes only your password.',
        ),
      ).toBeVisible();
      await expect(
        twoStepSection(page).getByText('Off: your password alone signs you in.'),
      ).toBeVisible();
      await newestEmail(page, origin, {
        to: person.email,
        subject: /^Two-step verification was turned off/,
      });

      await page.goto(`${origin}/dashboard`);
      await signOut(page);
      await signIn(page, person);
      await expect(page).toHaveURL(`${origin}/dashboard`);
    });
  });
}

test('where the company requires two-step verification, the member can change the phone but not turn it off', async ({
  page,
}) => {
  await page.goto(`${origin}/sign-in`);
  await signIn(page, { email: 'secure@example.com', password: 'portal-demo-2026' });
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSubmitOnFreshServer);
  await waitForHydration(page);
  await enrollPhone(page, '(555) 040-6607');
  await expect(page).toHaveURL(`${origin}/dashboard`);

  await openSecurity(page, true);
  const section = twoStepSection(page);
  await expect(section.getByText('(•••) •••-••07')).toBeVisible();
  await expect(
    section.getByText('Your company requires two-step verification, so it stays on.'),
  ).toBeVisible();
  await expect(section.getByRole('button', { name: 'Turn off two-step verification' })).toHaveCount(
    0,
  );
  await expect(section.getByLabel('New mobile phone number')).toBeVisible();
  await expectNoAxeViolations(page);
});

test('a signed-out visitor is sent to sign in, and the page is not shown', async ({ page }) => {
  await page.goto(`${origin}/account/security`);
  await expect(page).toHaveURL(`${origin}/sign-in`);
});
