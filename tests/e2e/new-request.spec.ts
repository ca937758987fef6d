import { expect, test, type Page, type Route } from '@playwright/test';
import { expectNoAxeViolations } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';
import {
  chooseFile,
  downloadedBytes,
  signUpNewMember,
  someFile,
  waitForIslands,
} from './support/requests';

// A server of its own: every test signs up a member (sign-ups are limited per address).
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

const tooLargeMessage = 'File size exceeds 25 MB, please upload a smaller file.';
const requestPage = /\/requests\/[0-9a-f-]{36}$/;
// Without JavaScript the browser keeps the form's `#new-request` across the redirect.
const requestPageAfterPost = /\/requests\/[0-9a-f-]{36}(#new-request)?$/;

/** Holds every request `pattern` matches until `release()`; `held` settles when one arrives. */
async function holdRequests(page: Page, pattern: RegExp | string) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  await page.route(pattern, async (route: Route) => {
    arrived();
    await released;
    await route.continue();
  });
  return { held, release };
}

/** Downloads the file the request page lists under `name`, and returns its bytes. */
async function downloadAttachment(page: Page, name: string): Promise<Buffer> {
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name }).first().click();
  return downloadedBytes(await download);
}

test('a member makes a request with a file through the drawer, and gets the file back', async ({
  page,
}) => {
  await signUpNewMember(page, origin);
  await waitForIslands(page, 'NewRequest', 'RequestCount');
  await expect(page.getByText('You have not made any requests yet.')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'New request' }).click();
  const drawer = page.getByRole('dialog', { name: 'New request' });
  await expect(drawer).toBeVisible();
  await expectNoAxeViolations(page);

  await drawer.getByRole('radio', { name: /^Travel\b/ }).check();
  await drawer.getByLabel('Title').fill('Book a hotel in Lisbon');
  await drawer.getByLabel('Details').fill('Two nights in May, near the river.');

  // The file goes straight to storage as soon as it is chosen, with a progress bar meanwhile.
  const file = someFile('itinerary.pdf', 512 * 1024);
  const upload = await holdRequests(page, '**/storage/uploads/**');
  await chooseFile(page, drawer, file);
  await upload.held;
  await expect(drawer.getByRole('progressbar', { name: 'Uploading itinerary.pdf' })).toBeVisible();
  await expect(drawer.getByRole('status').filter({ hasText: 'Uploading' })).toBeVisible();
  upload.release();
  await expect(drawer.getByRole('status').filter({ hasText: 'Uploaded' })).toBeVisible();

  // The count goes up the moment the request is made, while the next page is still on its way
  // (held here; Playwright's own waiting would wait for that page, so the count reports itself).
  const countsSeen: string[] = [];
  await page.exposeFunction('reportRequestCount', (text: string) => countsSeen.push(text));
  await page.getByText('You have not made any requests yet.').evaluate((count) => {
    const page = window as unknown as { reportRequestCount: (text: string) => void };
    new MutationObserver(() => {
      page.reportRequestCount(count.textContent);
    }).observe(count, { childList: true, characterData: true, subtree: true });
  });
  const navigation = await holdRequests(page, requestPage);
  await drawer.getByRole('button', { name: 'Send request' }).click();
  await navigation.held;
  await expect.poll(() => countsSeen).toContain('You have 1 request.');
  navigation.release();

  await expect(page).toHaveURL(requestPage);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Book a hotel in Lisbon');
  await expect(page.getByText('Your request has been sent.')).toBeVisible();
  await expect(page.getByText('Two nights in May, near the river.')).toBeVisible();
  const requestUrl = page.url();

  expect(await downloadAttachment(page, 'itinerary.pdf')).toEqual(file.buffer);

  await page.goto(`${origin}/requests`);
  await page.getByRole('link', { name: 'Book a hotel in Lisbon' }).click();
  await expect(page).toHaveURL(requestUrl);

  await page.goto(`${origin}/dashboard`);
  await expect(page.getByText('You have 1 request.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Book a hotel in Lisbon' }).first()).toBeVisible();
});

test('a request made on a category page starts in that category', async ({ page }) => {
  await signUpNewMember(page, origin);
  await page.goto(`${origin}/requests/category/health-and-wellness`);
  await waitForIslands(page, 'NewRequest');

  await page.getByRole('button', { name: 'New request' }).click();
  const drawer = page.getByRole('dialog', { name: 'New request' });
  await expect(drawer.getByRole('radio', { name: /^Health and wellness/ })).toBeChecked();
  await drawer.getByLabel('Title').fill('Find a dentist near work');
  await drawer.getByRole('button', { name: 'Send request' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Find a dentist near work');
  await expect(page.getByRole('link', { name: 'Health and wellness' })).toBeVisible();
  await page.goto(`${origin}/requests/category/health-and-wellness`);
  await expect(page.getByRole('link', { name: 'Find a dentist near work' })).toBeVisible();
});

test('the drawer shows what is missing, and refuses a file over 25 MB', async ({ page }) => {
  await signUpNewMember(page, origin);
  await waitForIslands(page, 'NewRequest');
  await page.getByRole('button', { name: 'New request' }).click();
  const drawer = page.getByRole('dialog', { name: 'New request' });

  await drawer.getByRole('button', { name: 'Send request' }).click();
  const summary = drawer.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link', { name: 'Enter a title for your request' })).toBeVisible();
  await expect(summary.getByRole('link', { name: 'Choose a category' })).toBeVisible();
  await expect(drawer.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
  await expect(drawer.getByText('Error: Enter a title for your request')).toBeVisible();
  await summary.getByRole('link', { name: 'Enter a title for your request' }).click();
  await expect(drawer.getByLabel('Title')).toBeFocused();

  await chooseFile(page, drawer, someFile('scan.pdf', 26214401));
  await expect(drawer.getByText(tooLargeMessage)).toBeVisible();
  await expect(drawer.getByRole('list', { name: 'Chosen file' })).toHaveCount(0);
});

test("text the API cannot store is refused in the form's own words, under its field", async ({
  page,
}) => {
  // U+0000 pasted into a field: the API refuses it naming its own field path
  // (`request.title`), which the member must never see.
  const unsavableTitle = 'Book a table\u0000 for two';
  const message =
    'Title contains a character that cannot be saved. Remove any null characters or broken emoji';
  await signUpNewMember(page, origin);
  await waitForIslands(page, 'NewRequest');
  await page.getByRole('button', { name: 'New request' }).click();
  const drawer = page.getByRole('dialog', { name: 'New request' });
  await drawer.getByRole('radio', { name: /^Travel\b/ }).check();
  await drawer.getByLabel('Title').fill(unsavableTitle);
  await expect(drawer.getByLabel('Title')).toHaveValue(unsavableTitle);
  await drawer.getByRole('button', { name: 'Send request' }).click();

  const summary = drawer.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary.getByRole('link', { name: message })).toBeVisible();
  await expect(drawer.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
  await expect(drawer.getByText(`Error: ${message}`)).toBeVisible();
  await expect(drawer).not.toContainText(/request\.title|U\+0000/);
  await page.goto(`${origin}/dashboard`);
  await expect(page.getByText('You have not made any requests yet.')).toBeVisible();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('a member makes a request with a file through the form on the page', async ({ page }) => {
    await signUpNewMember(page, origin, { firstName: 'Jordan', javaScript: false });
    await expect(page.getByText('You have not made any requests yet.')).toBeVisible();

    await page.getByRole('link', { name: 'New request' }).click();
    await expect(page).toHaveURL(`${origin}/dashboard#new-request`);
    const form = page.getByRole('region', { name: 'New request' });
    await expect(form).toBeVisible();

    await form.getByRole('radio', { name: /^Everyday errands\b/ }).check();
    await form.getByLabel('Title').fill('Return a parcel');
    await form.getByLabel('Details').fill('The label is attached.');
    const file = someFile('return-label.pdf', 300 * 1024);
    await form.getByLabel('Attachment').setInputFiles(file);
    await form.getByRole('button', { name: 'Send request' }).click();

    await expect(page).toHaveURL(requestPageAfterPost);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Return a parcel');
    await expect(page.getByText('Your request has been sent.')).toBeVisible();
    expect(await downloadAttachment(page, 'return-label.pdf')).toEqual(file.buffer);

    await page.goto(`${origin}/dashboard`);
    await expect(page.getByText('You have 1 request.')).toBeVisible();
  });

  test('the form shows what is missing under the fields, and refuses a file over 25 MB', async ({
    page,
  }) => {
    // A 25 MB post crosses the browser protocol and the server's form readers: give it time.
    test.slow();
    await signUpNewMember(page, origin, { firstName: 'Jordan', javaScript: false });
    await page.goto(`${origin}/dashboard#new-request`);
    let form = page.getByRole('region', { name: 'New request' });
    await form.getByRole('radio', { name: /^Travel\b/ }).check();
    await form.getByLabel('Details').fill('Anywhere warm.');
    await form.getByRole('button', { name: 'Send request' }).click();

    form = page.getByRole('region', { name: 'New request' });
    const summary = form.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(
      summary.getByRole('link', { name: 'Enter a title for your request' }),
    ).toBeVisible();
    await expect(form.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('Error: Enter a title for your request')).toBeVisible();
    // What was typed and chosen is kept.
    await expect(form.getByLabel('Details')).toHaveValue('Anywhere warm.');
    await expect(form.getByRole('radio', { name: /^Travel/ })).toBeChecked();

    await form.getByLabel('Title').fill('A week somewhere warm');
    await form.getByLabel('Attachment').setInputFiles(someFile('passport.pdf', 26214401));
    await form.getByRole('button', { name: 'Send request' }).click();
    form = page.getByRole('region', { name: 'New request' });
    await expect(
      form.getByRole('alert').getByRole('link', { name: tooLargeMessage }),
    ).toBeVisible();
    await expect(form.getByText(`Error: ${tooLargeMessage}`)).toBeVisible();
    await expect(form.getByLabel('Title')).toHaveValue('A week somewhere warm');
  });
});
