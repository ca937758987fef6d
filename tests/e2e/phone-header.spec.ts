import { expect, test, type Locator, type Page } from '@playwright/test';
import { requestSentMessage } from '../../src/lib/messages';
import { member, memberMenuButton, openMemberMenu, signIn } from './support/journeys';

/**
 * The signed-in header on the narrowest phones: one row of controls, nothing wider than the
 * screen, and toasts that leave the header's controls free. Boxes, not screenshots: the layout is
 * what matters, not the pixels.
 */

type Box = NonNullable<Awaited<ReturnType<Locator['boundingBox']>>>;

async function boxOf(locator: Locator): Promise<Box> {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} has no box`);
  return box;
}

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const centreY = (box: Box) => box.y + box.height / 2;

/**
 * The header's controls, by role and visible label (the Menu button once it has hydrated); the
 * member menu's button (its summary) holds the member's name.
 */
function headerOf(page: Page) {
  const header = page.getByRole('banner');
  return {
    header,
    menu: header.getByRole('button', { name: 'Menu' }),
    wordmark: header.getByRole('link', { name: 'Member Concierge' }),
    name: header.getByText(member.fullName),
    memberMenu: memberMenuButton(page),
  };
}

async function signInAsMember(page: Page): Promise<void> {
  await page.goto('/sign-in');
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
}

for (const width of [320, 375]) {
  test.describe(`a phone ${width} px wide`, () => {
    test.use({ viewport: { width, height: 700 }, hasTouch: true, isMobile: true });

    test('the header keeps its controls on one row and nothing is wider than the screen', async ({
      page,
    }) => {
      await signInAsMember(page);
      const controls = headerOf(page);
      const header = await boxOf(controls.header);
      const menu = await boxOf(controls.menu);
      const wordmark = await boxOf(controls.wordmark);
      const memberMenu = await boxOf(controls.memberMenu);

      // One row: every control inside the header, centred on the member menu's line, and the
      // header no taller than its tallest control and its padding.
      const row = { menu, wordmark, memberMenu };
      const inRow = (control: string, box: Box) => {
        expect(box.y, `${control}'s top`).toBeGreaterThanOrEqual(header.y);
        expect(box.y + box.height, `${control}'s bottom`).toBeLessThanOrEqual(
          header.y + header.height,
        );
        expect(
          Math.abs(centreY(box) - centreY(memberMenu)),
          `${control} beside the member menu`,
        ).toBeLessThan(2);
        expect(box.x, `${control}'s left`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${control}'s right`).toBeLessThanOrEqual(width);
      };
      for (const [control, box] of Object.entries(row)) inRow(control, box);
      // The member's name stays, cut short with an ellipsis if it must, on the same row.
      const name = await boxOf(controls.name);
      inRow('name', name);
      expect(header.height).toBeLessThan(
        Math.max(menu.height, wordmark.height, name.height, memberMenu.height) * 1.75,
      );
      // Left to right: Menu, the wordmark, then the member menu holding the name; none over
      // another.
      expect(menu.x + menu.width).toBeLessThanOrEqual(wordmark.x);
      expect(wordmark.x + wordmark.width).toBeLessThanOrEqual(memberMenu.x);
      expect(name.x).toBeGreaterThanOrEqual(memberMenu.x);
      expect(name.x + name.width).toBeLessThanOrEqual(memberMenu.x + memberMenu.width);

      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(width);
    });

    test('the open member menu stays on the screen, under the header', async ({ page }) => {
      await signInAsMember(page);
      const header = await boxOf(page.getByRole('banner'));
      await openMemberMenu(page);
      const banner = page.getByRole('banner');
      const account = await boxOf(banner.getByRole('link', { name: 'Account', exact: true }));
      const signOut = await boxOf(banner.getByRole('button', { name: 'Sign out' }));

      for (const [control, box] of Object.entries({ account, signOut })) {
        expect(box.x, `${control}'s left`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${control}'s right`).toBeLessThanOrEqual(width);
        expect(box.y, `${control} under the header`).toBeGreaterThanOrEqual(
          header.y + header.height,
        );
      }
      // The header itself keeps its one row while the menu is open.
      expect((await boxOf(banner)).height).toBe(header.height);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(width);
    });

    test('a toast leaves the header’s controls free', async ({ page }) => {
      await signInAsMember(page);
      const controls = headerOf(page);
      const boxes = {
        menu: await boxOf(controls.menu),
        wordmark: await boxOf(controls.wordmark),
        memberMenu: await boxOf(controls.memberMenu),
      };

      // The same toast a new request leaves, sent the way any script on the page may send one.
      await page.waitForFunction(() => 'portalNotifications' in window);
      await page.evaluate(
        (message) => window.portalNotifications?.send({ message }),
        requestSentMessage,
      );
      const toast = page
        .getByRole('region', { name: 'Notifications' })
        .getByRole('listitem')
        .filter({ hasText: requestSentMessage });
      const toastBox = await boxOf(toast);

      for (const [control, box] of Object.entries(boxes)) {
        expect(intersects(toastBox, box), `the toast over ${control}`).toBe(false);
      }
      // Nor the member's name, in the member menu's button.
      expect(intersects(toastBox, await boxOf(controls.name)), 'the toast over the name').toBe(
        false,
      );
      // Still on the screen, whole, with its close button in reach.
      expect(toastBox.x).toBeGreaterThanOrEqual(0);
      expect(toastBox.x + toastBox.width).toBeLessThanOrEqual(width);
      expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(700);
      await toast.getByRole('button', { name: 'Close' }).click();
      await expect(toast).toHaveCount(0);
    });
  });
}
