import type { Locator, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, kitSection, openKit, test } from './support/kit';

function requestTabs(page: Page): Locator {
  return page.getByRole('tablist', { name: 'Requests by status' });
}

/** A real touch swipe (trusted touch events through the DevTools protocol), `deltaX` pixels across. */
async function swipe(page: Page, target: Locator, deltaX: number): Promise<void> {
  // Touches land on viewport coordinates: the target has to be on screen.
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to swipe on');
  const x = box.x + box.width / 2 - deltaX / 2;
  const y = box.y + box.height / 2;
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

test.describe('tabs', () => {
  test('the first tab is active, and arrows, Home and End move and activate', async ({ page }) => {
    await openKit(page);
    const section = kitSection(page, 'Tabs');
    const tabs = requestTabs(page);
    const open = tabs.getByRole('tab', { name: 'Open' });
    await expect(open).toHaveAttribute('aria-selected', 'true');
    await open.focus();
    await page.keyboard.press('ArrowRight');
    const waiting = tabs.getByRole('tab', { name: 'Waiting on you' });
    await expect(waiting).toBeFocused();
    await expect(waiting).toHaveAttribute('aria-selected', 'true');
    await expect(section.getByRole('tabpanel', { name: 'Waiting on you' })).toHaveText(
      'Requests that need your answer.',
    );
    await expect(section.getByText('Active tab value: Waiting_on_you')).toBeVisible();
    await page.keyboard.press('End');
    await expect(tabs.getByRole('tab', { name: 'Completed' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(open).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(tabs.getByRole('tab', { name: 'Completed' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.keyboard.press('Home');
    await expect(open).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Tab');
    await expect(section.getByRole('tabpanel', { name: 'Open' })).toBeFocused();
  });

  test('with manual activation, arrows only move focus and Enter activates', async ({ page }) => {
    await openKit(page);
    const tabs = page.getByRole('tablist', { name: 'Partner offers' });
    await tabs.getByRole('tab', { name: 'Life insurance' }).focus();
    await page.keyboard.press('ArrowRight');
    const auto = tabs.getByRole('tab', { name: 'Auto insurance' });
    await expect(auto).toBeFocused();
    await expect(auto).toHaveAttribute('aria-selected', 'false');
    await page.keyboard.press('Enter');
    await expect(auto).toHaveAttribute('aria-selected', 'true');
  });

  test('a click activates a tab', async ({ page }) => {
    await openKit(page);
    await requestTabs(page).getByRole('tab', { name: 'Completed' }).click();
    await expect(kitSection(page, 'Tabs').getByText('Active tab value: Completed')).toBeVisible();
  });

  test('the indicator starts under the active tab and follows it', async ({ page }) => {
    await openKit(page);
    const tabs = requestTabs(page);
    const indicator = tabs.locator('xpath=following-sibling::span[@data-ready]');
    await expect(indicator).toBeVisible();
    const under = async (name: string) => {
      await expect
        .poll(async () => {
          const tab = await tabs.getByRole('tab', { name }).boundingBox();
          const line = await indicator.boundingBox();
          // `|| 0` turns a rounded -0 into 0.
          return tab && line
            ? [Math.round(line.x - tab.x) || 0, Math.round(line.width - tab.width) || 0]
            : null;
        })
        .toEqual([0, 0]);
    };
    await under('Open');
    await tabs.getByRole('tab', { name: 'Completed' }).click();
    await under('Completed');
  });

  test('the scroll buttons move a long tab list by 80% of its visible width', async ({ page }) => {
    await page.setViewportSize({ width: 600, height: 800 });
    await openKit(page);
    const tabs = page.getByRole('tablist', { name: 'Partner offers' });
    const scroller = tabs.locator('xpath=..');
    const right = kitSection(page, 'Tabs')
      .getByRole('button', { name: 'Scroll tabs right' })
      .last();
    await expect(right).toBeVisible();
    const visibleWidth = await scroller.evaluate((element) => element.clientWidth);
    await right.click();
    await expect
      .poll(() => scroller.evaluate((element) => element.scrollLeft))
      .toBe(Math.round(visibleWidth * 0.8));
    await expect(
      kitSection(page, 'Tabs').getByRole('button', { name: 'Scroll tabs left' }).last(),
    ).toBeVisible();
  });

  test('tabs have no accessibility violations', async ({ page }) => {
    await openKit(page);
    await requestTabs(page).getByRole('tab', { name: 'Waiting on you' }).click();
    await expectNoAxeViolations(page, ['section[aria-labelledby="kit-tabs"]']);
  });
});

test.describe('tab swipes', () => {
  test.use({ hasTouch: true });

  test('a swipe of 49 px does nothing, 50 px to the right goes to the next tab', async ({
    page,
  }) => {
    await openKit(page);
    const section = kitSection(page, 'Tabs');
    const panel = () => section.getByRole('tabpanel').first();
    await swipe(page, panel(), 49);
    await expect(requestTabs(page).getByRole('tab', { name: 'Open' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await swipe(page, panel(), 50);
    await expect(requestTabs(page).getByRole('tab', { name: 'Waiting on you' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  test('swipes to the left go back, and swipes stop at either end', async ({ page }) => {
    await openKit(page);
    const section = kitSection(page, 'Tabs');
    const panel = () => section.getByRole('tabpanel').first();
    const selected = () => requestTabs(page).getByRole('tab', { selected: true });
    await swipe(page, panel(), -80);
    await expect(selected()).toHaveText('Open');
    await swipe(page, panel(), 80);
    await swipe(page, panel(), 80);
    await expect(selected()).toHaveText('Completed');
    await swipe(page, panel(), 80);
    await expect(selected()).toHaveText('Completed');
    await swipe(page, panel(), -50);
    await expect(selected()).toHaveText('Waiting on you');
  });
});
