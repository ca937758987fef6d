import { expect, test, type Page } from '@playwright/test';
import {
  newMemberOnSecurityPage,
  notifications,
  shownRecoveryCodes,
} from './support/authenticator-app';
import { newestEmail } from './support/inbox';
import { expectNoAxeViolations, signIn, signOut, waitForHydration } from './support/journeys';
import { freePort, startPortalServer, type PortalServer } from './support/portal-server';

/**
 * Passkeys (docs/PRODUCT.md §11.2): added from Sign-in and security, then signing in alone from
 * SignIn, or taking the MFA step after the password, and removed with the password. The member's
 * device is Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain), which
 * verifies the member as a fingerprint would. Browsers refuse an IP address as a relying party:
 * this file's server is opened at `http://localhost:<port>`, its PUBLIC_ORIGIN.
 */
let server: PortalServer;
let origin: string;

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  server = await startPortalServer({ port, env: { OUTBOX_VIEWER: 'true', PUBLIC_ORIGIN: origin } });
});

test.afterAll(async () => {
  await server.stop();
});

/** A platform authenticator on this page that holds passkeys and verifies the member at once. */
async function addVirtualAuthenticator(page: Page) {
  const devTools = await page.context().newCDPSession(page);
  await devTools.send('WebAuthn.enable');
  const { authenticatorId } = await devTools.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () =>
      (await devTools.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    /** Whether the member answers the browser's passkey prompts at once, or never. */
    answers: (enabled: boolean) =>
      devTools.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled }),
  };
}

const passkeysSection = (page: Page) => page.getByRole('region', { name: 'Passkeys' });

/** The WebAuthn code is asked for only when the member asks for a passkey. */
function ceremoniesRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (/\/passkey-ceremonies[.-]/.test(request.url())) seen.push(request.url());
  });
  return seen;
}

test('a member adds a passkey, signs in with it alone, then with the password and the passkey, and removes it', async ({
  page,
}) => {
  const authenticator = await addVirtualAuthenticator(page);
  const person = await newMemberOnSecurityPage(page, origin, 'Piper', true);

  // Adding: named by the member; the first strong factor comes with recovery codes.
  const section = passkeysSection(page);
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByRole('alert')).toContainText('Enter a name for the passkey');
  await section.getByLabel('Name of the passkey').fill('Work laptop');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  // The change in words, the passkey listed, and the codes it came with, on the page that answers.
  await expect(
    passkeysSection(page).getByText('Passkey added. You can now sign in with it.'),
  ).toBeVisible();
  await expect(
    passkeysSection(page).getByRole('listitem').filter({ hasText: 'Work laptop' }),
  ).toBeVisible();
  await expect(passkeysSection(page).getByRole('heading', { name: 'Add a passkey' })).toHaveCount(
    0,
  );
  await shownRecoveryCodes(page);
  expect(await authenticator.credentials()).toHaveLength(1);
  await page.getByRole('link', { name: 'I have saved my codes' }).click();
  await expect(page).toHaveURL(`${origin}/account/security`);
  await waitForHydration(page);
  const listed = passkeysSection(page).getByRole('listitem').filter({ hasText: 'Work laptop' });
  await expect(listed).toContainText('Added');
  await expect(listed).toContainText('Not yet');
  await expectNoAxeViolations(page);
  const added = await newestEmail(page, origin, {
    to: person.email,
    subject: /A passkey was added/,
  });
  await expect(added).toContainText('The passkey "Work laptop" can now sign you in');

  // Alone: the button on SignIn; nothing of WebAuthn loads before it is pressed.
  await page.goto(`${origin}/dashboard`);
  await signOut(page);
  await expect(page).toHaveURL(`${origin}/sign-in`);
  const loaded = ceremoniesRequests(page);
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel('Email address')).toHaveAttribute(
    'autocomplete',
    'username webauthn',
  );
  expect(loaded).toEqual([]);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(`${origin}/dashboard`);
  expect(loaded).toHaveLength(1);

  // Alone again, from the email field: the browser offers the passkey among its suggestions,
  // which the member picks at once here.
  await signOut(page);
  await page.goto(`${origin}/sign-in`);
  await waitForHydration(page);
  await page.getByLabel('Email address').click();
  await expect(page).toHaveURL(`${origin}/dashboard`);

  // With the password, the MFA step offers the passkey first (the way used last). The member
  // ignores the email field's suggestion this time.
  await signOut(page);
  await authenticator.answers(false);
  await page.goto(`${origin}/sign-in`);
  await waitForHydration(page);
  await signIn(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  await authenticator.answers(true);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Use your passkey');
  await expect(page.getByRole('link', { name: 'Use a recovery code' })).toBeVisible();
  await waitForHydration(page);
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Use my passkey' }).click();
  await expect(page).toHaveURL(`${origin}/dashboard`);

  // Removed with the password: the last factor goes, and two-step verification with it.
  await page.goto(`${origin}/account/security`);
  await waitForHydration(page);
  const removal = passkeysSection(page).getByRole('listitem').filter({ hasText: 'Work laptop' });
  await removal.getByText('Remove “Work laptop”').click();
  await removal.getByLabel('Current password').fill(person.password);
  await removal.getByRole('button', { name: 'Remove this passkey' }).click();
  await expect(notifications(page)).toContainText('Passkey removed.');
  await expect(passkeysSection(page).getByRole('listitem')).toHaveCount(0);
  const removed = await newestEmail(page, origin, {
    to: person.email,
    subject: /A passkey was removed/,
  });
  await expect(removed).toContainText('The passkey "Work laptop" no longer signs you in');

  // The browser still holds it, but the site no longer knows it.
  await page.goto(`${origin}/dashboard`);
  await signOut(page);
  await page.goto(`${origin}/sign-in`);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'That passkey could not sign you in. Try again, or sign in with your email and password.',
  );
  await expect(page).toHaveURL(`${origin}/sign-in`);
});

test('without JavaScript, the pages say that passkeys need it and offer the other ways', async ({
  page,
  browser,
}) => {
  await addVirtualAuthenticator(page);
  const person = await newMemberOnSecurityPage(page, origin, 'Rowan', true);
  const section = passkeysSection(page);
  await section.getByLabel('Name of the passkey').fill('Phone');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  const codes = await shownRecoveryCodes(page);

  const scriptless = await browser.newContext({ javaScriptEnabled: false });
  const other = await scriptless.newPage();
  await other.goto(`${origin}/sign-in`);
  await expect(
    other.getByText('Passkeys need JavaScript, which is off in this browser.'),
  ).toBeVisible();
  await expect(other.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);
  await signIn(other, person);
  await expect(other).toHaveURL(`${origin}/mfa-enrollment`);
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Use your passkey');
  await expect(
    other.getByText('Passkeys need JavaScript, which is off in this browser.'),
  ).toBeVisible();
  await expect(other.getByRole('button', { name: 'Use my passkey' })).toHaveCount(0);
  await other.getByRole('link', { name: 'Use a recovery code' }).click();
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Enter a recovery code');
  await other.getByLabel('Recovery code').fill(codes[0] ?? '');
  await other.getByRole('button', { name: 'Verify' }).click();
  await expect(other).toHaveURL(`${origin}/dashboard`);
  // Adding one needs it too; the other ways stay.
  await other.goto(`${origin}/account/security`);
  await expect(
    passkeysSection(other).getByText('Passkeys need JavaScript, which is off in this browser.'),
  ).toBeVisible();
  await expect(passkeysSection(other).getByRole('button', { name: 'Add a passkey' })).toHaveCount(
    0,
  );
  await scriptless.close();
});
