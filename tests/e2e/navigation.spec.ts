import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, member, signIn } from './support/journeys';
import { startPortalServer, type PortalServer } from './support/portal-server';

/**
 * Moving around the signed-in pages: the header's links on wide screens, a Menu button and the
 * kit's nav Drawer on phones, and the same links in the footer when scripts cannot run.
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

/** The menu has hydrated once it is a button (before, it is a link to the footer's links). */
async function menuReady(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
}

async function signInAsMember(page: Page): Promise<void> {
  await page.goto(`${origin}/dashboard`);
  await signIn(page, member);
  await expect(page).toHaveURL(`${origin}/dashboard`);
}

/** Presses Tab until `name` has focus (at most `limit` times), as a keyboard user does. */
async function tabTo(page: Page, name: string, limit = 10): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      return element?.getAttribute('aria-label') ?? element?.textContent.trim() ?? '';
    });
    if (focused === name) return;
  }
  throw new Error(`${name} was not reached with ${limit} presses of Tab`);
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the menu drawer moves between pages with the keyboard alone', async ({ page }) => {
    await signInAsMember(page);
    await menuReady(page);
    // The header's links give way to the Menu button.
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveCount(0);

    const menuButton = page.getByRole('button', { name: 'Menu' });
    await tabTo(page, 'Menu');
    await expect(menuButton).toBeFocused();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Close menu' })).toBeFocused();
    await expect(drawer.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await tabTo(page, 'Requests');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${origin}/requests`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Requests');

    // A request is under Requests: the menu says so there too.
    await page.getByRole('link', { name: 'Movers for our move on April 12' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Movers for our move on April 12',
    );
    await menuReady(page);
    await tabTo(page, 'Menu');
    await page.keyboard.press('Enter');
    await expect(drawer.getByRole('link', { name: 'Requests' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(drawer.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute(
      'aria-current',
    );
    await expectNoAxeViolations(page);

    // Escape closes it and gives focus back to the button.
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menuButton).toBeFocused();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  });

  test('the drawer is as wide as the screen', async ({ page }) => {
    await signInAsMember(page);
    await menuReady(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(390);
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
  });
});

test.describe('on a wide screen', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the header links mark the page shown, and sub-pages mark their section', async ({
    page,
  }) => {
    await signInAsMember(page);
    const navigation = page.getByRole('navigation', { name: 'Main' });
    await expect(navigation).toBeVisible();
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
    await expect(navigation.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await navigation.getByRole('link', { name: 'Requests' }).click();
    await expect(page).toHaveURL(`${origin}/requests`);
    await expect(navigation.getByRole('link', { name: 'Requests' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(navigation.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute(
      'aria-current',
    );

    await page.getByRole('link', { name: 'Flights to Denver for the March conference' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Flights to Denver for the March conference',
    );
    await expect(navigation.getByRole('link', { name: 'Requests' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await page.getByRole('link', { name: 'Travel' }).first().click();
    await expect(page).toHaveURL(`${origin}/requests/category/travel`);
    await expect(navigation.getByRole('link', { name: 'Requests' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('a tablet opens the menu as a 275px drawer', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 1000 });
    await signInAsMember(page);
    await menuReady(page);
    // The header's links give way to the Menu button.
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveCount(0);
    await page.getByRole('button', { name: 'Menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(275);
    // A click beside it closes it.
    await page.mouse.click(600, 500);
    await expect(drawer).toBeHidden();
  });
});

test.describe('on a phone with JavaScript off', () => {
  test.use({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });

  test('the Menu link leads to the same links in the footer', async ({ page }) => {
    await signInAsMember(page);
    await page.getByRole('link', { name: 'Menu' }).click();
    await expect(page).toHaveURL(`${origin}/dashboard#site-navigation`);
    const links = page.getByRole('navigation', { name: 'Site' });
    await expect(links).toBeInViewport();
    await expect(links.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await links.getByRole('link', { name: 'Requests' }).click();
    await expect(page).toHaveURL(`${origin}/requests`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Requests');
  });
});
