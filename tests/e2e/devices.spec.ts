import { expect, test, type Browser, type Page } from '@playwright/test';
import { newPerson, signUp } from './support/accounts';
import { expectNoAxeViolations, signIn, signOut } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * Devices (docs/PRODUCT.md §11.2): /account/devices lists where the member is signed in, and
 * signs other devices out. Two browsers per journey, each a context of its own, signed in as one
 * new member; a server of this file's own, so the sessions listed are only these.
 */
let server: PortalServer;
let origin: string;

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  server = await startPortalServer();
  origin = server.baseURL;
});

test.afterAll(async () => {
  await server.stop();
});

interface Person {
  email: string;
  password: string;
}

/** A new member, signed up (the phone offer skipped) in `page`. */
async function newMember(page: Page, firstName: string): Promise<Person> {
  const person = newPerson(firstName);
  await page.goto(`${origin}/sign-up`);
  await signUp(page, person);
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(`${origin}/welcome/about-us`);
  return person;
}

/** The same member in another browser (a context of its own), on the Dashboard. */
async function signedInElsewhere(browser: Browser, person: Person, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await page.goto(`${origin}/sign-in`);
  await signIn(page, person);
  await expect(page).toHaveURL(/\/(dashboard|welcome\/about-us)$/);
  return { context, page };
}

function devices(page: Page) {
  return page.getByRole('list', { name: 'Where you are signed in' });
}

async function openDevices(page: Page) {
  await page.goto(`${origin}/account/devices`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Devices');
}

/** The signed-out browser's next page is SignIn. */
async function expectSignedOut(page: Page) {
  await page.goto(`${origin}/dashboard`);
  await expect(page).toHaveURL(new RegExp(`^${origin}/sign-in`));
}

test('a member sees both browsers, this one marked, and ends the other one, which is signed out', async ({
  page,
  browser,
}) => {
  const person = await newMember(page, 'Quinn');
  const other = await signedInElsewhere(browser, person);

  await openDevices(page);
  const sections = page.getByRole('navigation', { name: 'Your account' });
  await expect(sections.getByRole('link', { name: 'Devices' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const cards = devices(page).getByRole('listitem');
  await expect(cards).toHaveCount(2);
  const current = cards.filter({ hasText: 'This device' });
  await expect(current).toHaveCount(1);
  await expect(current).toContainText(/^Chrome \d+ on \w+This device/);
  await expect(current).toContainText(/Network\s*127\.0\.0\.0\/24/);
  await expect(current.getByRole('button', { name: 'End session' })).toHaveCount(0);
  await expect(current.locator('time').first()).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  await expectNoAxeViolations(page);

  const otherCard = cards.filter({ hasNotText: 'This device' });
  await otherCard.getByRole('button', { name: 'End session' }).click();

  await expect(page).toHaveURL(`${origin}/account/devices`);
  const notifications = page.getByRole('region', { name: 'Notifications' });
  await expect(notifications.getByText('That device has been signed out.')).toBeVisible();
  await expect(cards).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Sign out of all other devices' })).toHaveCount(0);

  await expectSignedOut(other.page);
  await other.context.close();
  // This browser stays signed in.
  await page.goto(`${origin}/dashboard`);
  await expect(page).toHaveURL(`${origin}/dashboard`);
});

test('"Sign out of all other devices" signs out every other browser and keeps this one', async ({
  page,
  browser,
}) => {
  const person = await newMember(page, 'Harper');
  const first = await signedInElsewhere(browser, person);
  const second = await signedInElsewhere(browser, person);

  await openDevices(page);
  await expect(devices(page).getByRole('listitem')).toHaveCount(3);
  await page.getByRole('button', { name: 'Sign out of all other devices' }).click();

  await expect(page).toHaveURL(`${origin}/account/devices`);
  await expect(
    page
      .getByRole('region', { name: 'Notifications' })
      .getByText('Every other device has been signed out.'),
  ).toBeVisible();
  await expect(devices(page).getByRole('listitem')).toHaveCount(1);
  for (const other of [first, second]) {
    await expectSignedOut(other.page);
    await other.context.close();
  }
});

test('a device already signed out is named above the list, which no longer shows it', async ({
  page,
  browser,
}) => {
  const person = await newMember(page, 'Sasha');
  const other = await signedInElsewhere(browser, person);
  await openDevices(page);

  // The other browser signs itself out while this page still lists it.
  await signOut(other.page);
  await expect(other.page).toHaveURL(`${origin}/sign-in`);
  await other.context.close();
  await devices(page)
    .getByRole('listitem')
    .filter({ hasNotText: 'This device' })
    .getByRole('button', { name: 'End session' })
    .click();

  await expect(page.getByRole('alert')).toContainText('That session has already ended.');
  await expect(devices(page).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Sign out of all other devices' })).toHaveCount(0);
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the other browser is signed out through the plain forms', async ({ page, browser }) => {
    const person = await newMember(page, 'Emery');
    const other = await signedInElsewhere(browser, person, false);
    const third = await signedInElsewhere(browser, person, false);

    await openDevices(page);
    const cards = devices(page).getByRole('listitem');
    await expect(cards).toHaveCount(3);
    await cards
      .filter({ hasNotText: 'This device' })
      .first()
      .getByRole('button', { name: 'End session' })
      .click();
    await expect(page).toHaveURL(`${origin}/account/devices`);
    await expect(page.getByText('That device has been signed out.')).toBeVisible();
    await expect(cards).toHaveCount(2);

    await page.getByRole('button', { name: 'Sign out of all other devices' }).click();
    await expect(page).toHaveURL(`${origin}/account/devices`);
    await expect(page.getByText('Every other device has been signed out.')).toBeVisible();
    await expect(cards).toHaveCount(1);

    for (const signedOut of [other, third]) {
      await expectSignedOut(signedOut.page);
      await signedOut.context.close();
    }
  });
});
