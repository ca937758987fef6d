import { expect, test, type Locator, type Page } from '@playwright/test';
import { MOVING_INVENTORY } from '../../api/demo/seed-requests.ts';
import { enterTextedCode } from './support/accounts';
import { expectNoAxeViolations, member, signIn, waitForHydration } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';
import { downloadedBytes, signUpNewMember } from './support/requests';

/**
 * Browsing requests (docs/PRODUCT.md §2, §7.2.1): the Requests page's tabs and pages, one
 * request with its timeline and files, a category. The demo member's requests are the seed's
 * (api/demo/seed-requests.ts): open ones in each open status, closed ones completed and cancelled.
 *
 * A server of its own (per worker): no other spec's requests change what these pages list.
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

const seeded = {
  open: [
    'Movers for our move on April 12',
    'Flights to Denver for the March conference',
    'Return a pair of boots',
    'A pediatric dentist near home',
  ],
  closed: [
    'Birthday gift for my sister',
    'Compare car insurance before the renewal',
    'After-school care on Thursdays',
  ],
};

async function signInAsMember(page: Page, path = '/requests'): Promise<void> {
  await page.goto(`${origin}${path}`);
  await signIn(page, member);
  await expect(page).toHaveURL(`${origin}${path}`);
}

function statusTabs(page: Page): Locator {
  return page.getByRole('tablist', { name: 'Requests by status' });
}

/** The requests the visible panel lists (each row's one link is its title), in order. */
function listedTitles(page: Page): Locator {
  return page.getByRole('tabpanel').getByRole('listitem').getByRole('link');
}

/** Expects `texts` to appear in `region` in this order. */
async function expectInOrder(region: Locator, texts: readonly string[]): Promise<void> {
  const content = ((await region.textContent()) ?? '').replace(/\s+/g, ' ');
  const positions = texts.map((text) => content.indexOf(text));
  expect(
    positions.every((position) => position >= 0),
    `${texts.join(', ')} in:\n${content}`,
  ).toBe(true);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
}

/** A real touch swipe (trusted touch events through the DevTools protocol), `deltaX` across. */
async function swipe(page: Page, target: Locator, deltaX: number): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to swipe on');
  const x = box.x + box.width / 2 - deltaX / 2;
  const y = box.y + Math.min(box.height / 2, 100);
  const session = await page.context().newCDPSession(page);
  await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  await session.send('Input.dispatchTouchEvent', {
    type: 'touchMove',
    touchPoints: [{ x: x + deltaX / 2, y }],
  });
  await session.send('Input.dispatchTouchEvent', {
    type: 'touchMove',
    touchPoints: [{ x: x + deltaX, y }],
  });
  await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await session.detach();
}

/**
 * Makes a request by posting the new-request form as a browser without JavaScript does (the
 * page's cookies, same-site Origin, the `_xsrf` field); answers the new request's address.
 */
async function postNewRequest(page: Page, categoryId: string, title: string): Promise<void> {
  const cookies = await page.context().cookies(origin);
  const xsrf = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await page.request.post(`${origin}/dashboard?_action=requests.create`, {
    headers: { origin },
    form: { category_id: categoryId, title, details: '', _xsrf: xsrf },
    maxRedirects: 0,
  });
  expect(response.status(), `making "${title}"`).toBe(303);
}

test.describe('the Requests page', () => {
  test('lists the open requests first, and Closed by click keeps its tab in the address', async ({
    page,
  }) => {
    await signInAsMember(page);
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Requests');
    await expect(statusTabs(page).getByRole('tab', { name: 'Open' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(listedTitles(page)).toHaveText(seeded.open);

    const firstRow = page.getByRole('tabpanel').getByRole('listitem').first();
    await expect(firstRow).toContainText('Home and moving');
    await expect(firstRow).toContainText('Submitted');
    await expect(firstRow).toContainText(/Updated \d\d\/\d\d\/\d\d/);
    await expect(page.getByRole('tabpanel').getByText('Waiting on you')).toBeVisible();
    await expect(page.getByRole('tabpanel').getByText('In progress')).toHaveCount(2);

    await statusTabs(page).getByRole('tab', { name: 'Closed' }).click();
    await expect(page).toHaveURL(`${origin}/requests?tab=Closed`);
    await expect(listedTitles(page)).toHaveText(seeded.closed);
    await expect(page.getByRole('tabpanel').getByText('Cancelled')).toBeVisible();

    await page.reload();
    await expect(statusTabs(page).getByRole('tab', { name: 'Closed' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(listedTitles(page)).toHaveText(seeded.closed);
    await expectNoAxeViolations(page);
  });

  test('a member without requests is invited to make a first one, and pages through many', async ({
    page,
  }) => {
    test.slow();
    await signUpNewMember(page, origin, { firstName: 'Pat' });
    await page.goto(`${origin}/requests`);
    const invitation = page.getByRole('link', { name: 'Make your first request' });
    await expect(invitation).toHaveAttribute('href', '/dashboard#new-request');

    // Eleven open requests: ten on the first page, the oldest on the second.
    for (let number = 1; number <= 11; number += 1) {
      await postNewRequest(page, 'everyday-errands', `Errand number ${number}`);
    }
    await page.goto(`${origin}/requests`);
    await waitForHydration(page);
    await expect(listedTitles(page)).toHaveCount(10);
    await expect(listedTitles(page).first()).toHaveText('Errand number 11');
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Previous page' })).toHaveCount(0);

    // The next page is the one after this page's last request (docs/PRODUCT.md §7.2).
    await page.getByRole('link', { name: 'Next page' }).click();
    await expect(page).toHaveURL(new RegExp(`^${origin}/requests\\?tab=Open&after=[\\w-]+$`));
    const secondPage = page.url();
    await expect(listedTitles(page)).toHaveText(['Errand number 1']);
    await expect(page.getByText('Page 2 of 2')).toBeVisible();

    // The other tab starts at its own first page, and coming back keeps this one.
    await waitForHydration(page);
    await statusTabs(page).getByRole('tab', { name: 'Closed' }).click();
    await expect(page).toHaveURL(`${origin}/requests?tab=Closed`);
    await expect(page.getByRole('tabpanel')).toContainText('No closed requests yet');
    await statusTabs(page).getByRole('tab', { name: 'Open' }).click();
    await expect(page).toHaveURL(secondPage);

    await page.getByRole('link', { name: 'Previous page' }).click();
    await expect(page).toHaveURL(`${origin}/requests?tab=Open`);
    await expect(listedTitles(page)).toHaveCount(10);

    // A page past the last says so and leads back.
    await page.goto(`${origin}/requests?tab=Open&page=9`);
    await expect(page.getByText('There are no requests on this page.')).toBeVisible();
    await page.getByRole('link', { name: 'Previous page' }).click();
    await expect(page).toHaveURL(`${origin}/requests?tab=Open&page=2`);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('swiping the list moves between the Open and Closed tabs', async ({ page }) => {
    await signInAsMember(page);
    await waitForHydration(page);
    const panel = () => page.getByRole('tabpanel');

    await swipe(page, panel(), 80);
    await expect(statusTabs(page).getByRole('tab', { name: 'Closed' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page).toHaveURL(`${origin}/requests?tab=Closed`);
    await expect(listedTitles(page)).toHaveText(seeded.closed);

    await swipe(page, panel(), -80);
    await expect(statusTabs(page).getByRole('tab', { name: 'Open' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page).toHaveURL(`${origin}/requests?tab=Open`);
    await expect(listedTitles(page)).toHaveText(seeded.open);
  });
});

test.describe('one request', () => {
  test('shows its details, timeline and files, and a file downloads as it was uploaded', async ({
    page,
  }) => {
    await signInAsMember(page);
    await page.getByRole('link', { name: 'Movers for our move on April 12' }).click();
    await expect(page).toHaveURL(/\/requests\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Movers for our move on April 12',
    );
    await expect(page.getByRole('link', { name: 'Home and moving' })).toHaveAttribute(
      'href',
      '/requests/category/home-and-moving',
    );
    await expect(page.getByText('Submitted', { exact: true })).toBeVisible();
    await expect(page.getByText(/licensed mover with insurance/)).toBeVisible();
    await expect(
      page.getByRole('listitem').filter({ hasText: 'You made the request' }),
    ).toContainText(/\d\d\/\d\d\/\d\d/);
    await expectNoAxeViolations(page);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Moving inventory.txt' }).first().click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('Moving inventory.txt');
    expect((await downloadedBytes(file)).equals(MOVING_INVENTORY.content)).toBe(true);
  });

  test('a timeline shows each change of status and each note, oldest first', async ({ page }) => {
    await signInAsMember(page);
    await page.getByRole('link', { name: 'A pediatric dentist near home' }).click();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await expect(timeline).toContainText('Bright Smiles Pediatric Dentistry');
    await expectInOrder(timeline, [
      'You made the request',
      'Dental plan card.txt',
      'Your concierge changed the status to In progress',
      'checking which practices near you are in network',
      'Your concierge changed the status to Waiting on you',
      'Bright Smiles Pediatric Dentistry',
    ]);
  });

  test('an unknown or malformed id is a page that says the request was not found', async ({
    page,
  }) => {
    await signInAsMember(page);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-request', '%27%3B--']) {
      const response = await page.goto(`${origin}/requests/${id}`);
      expect(response?.status(), id).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Request not found');
    }
    await expect(page.getByRole('link', { name: 'See all your requests' })).toHaveAttribute(
      'href',
      '/requests',
    );
  });

  test('another member’s request and files are not found either', async ({ page, browser }) => {
    // The member's own request and file, as their addresses.
    await signInAsMember(page);
    await page.getByRole('link', { name: 'Movers for our move on April 12' }).click();
    await expect(page).toHaveURL(/\/requests\/[0-9a-f-]{36}$/);
    const requestPath = new URL(page.url()).pathname;
    const filePath =
      (await page
        .getByRole('link', { name: 'Moving inventory.txt' })
        .first()
        .getAttribute('href')) ?? '';
    expect(filePath).toMatch(/^\/requests\/[0-9a-f-]{36}\/attachments\/[0-9a-f-]{36}$/);

    // A file only opens under its own request.
    await page.goto(`${origin}/requests`);
    await page.getByRole('link', { name: 'A pediatric dentist near home' }).click();
    const otherRequestPath = new URL(page.url()).pathname;
    const mismatched = await page.request.get(
      `${origin}${otherRequestPath}/attachments/${filePath.split('/').pop() ?? ''}`,
      { maxRedirects: 0 },
    );
    expect(mismatched.status()).toBe(404);

    // Another member (verified@example.com, who enters a texted code) sees neither.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto(`${origin}/sign-in`);
    await signIn(otherPage, { email: 'verified@example.com', password: member.password });
    await expect(otherPage).toHaveURL(`${origin}/mfa-enrollment`);
    await waitForHydration(otherPage);
    await otherPage.getByRole('button', { name: 'Text me a code' }).click();
    await enterTextedCode(otherPage, '23');
    await expect(otherPage).toHaveURL(`${origin}/dashboard`);

    const response = await otherPage.goto(`${origin}${requestPath}`);
    expect(response?.status()).toBe(404);
    await expect(otherPage.getByRole('heading', { level: 1 })).toHaveText('Request not found');
    await expect(otherPage.getByText('Movers for our move')).toHaveCount(0);
    const file = await otherPage.request.get(`${origin}${filePath}`, { maxRedirects: 0 });
    expect(file.status()).toBe(404);
    await other.close();
  });
});

test.describe('a category', () => {
  test('lists the member’s requests in it', async ({ page }) => {
    await signInAsMember(page);
    await page
      .getByRole('region', { name: 'Browse by category' })
      .getByRole('link', { name: 'Everyday errands' })
      .click();
    await expect(page).toHaveURL(`${origin}/requests/category/everyday-errands`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Everyday errands');
    const requests = page.getByRole('region', { name: 'Your requests in Everyday errands' });
    await expect(requests.getByRole('listitem').getByRole('link')).toHaveText([
      'Return a pair of boots',
      'Birthday gift for my sister',
    ]);
    await expect(requests).toContainText('Cancelled');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Requests' }),
    ).toHaveAttribute('aria-current', 'page');
    await expectNoAxeViolations(page);
  });

  test('an unknown category is not found', async ({ page }) => {
    await signInAsMember(page);
    const response = await page.goto(`${origin}/requests/category/gardening`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Category not found');
  });
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the tabs are plain links, and a request shows in full', async ({ page }) => {
    await signInAsMember(page);
    const plainTabs = page.getByRole('navigation', { name: 'Requests by status' });
    await expect(plainTabs.getByRole('link', { name: 'Open' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByRole('tab')).toHaveCount(0);
    await expect(listedTitles(page)).toHaveText(seeded.open);

    await plainTabs.getByRole('link', { name: 'Closed' }).click();
    await expect(page).toHaveURL(`${origin}/requests?tab=Closed`);
    await expect(listedTitles(page)).toHaveText(seeded.closed);

    await page.getByRole('link', { name: 'Compare car insurance before the renewal' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Compare car insurance before the renewal',
    );
    await expect(page.getByRole('region', { name: 'Timeline' })).toContainText(
      'Your concierge changed the status to Completed',
    );
  });
});
