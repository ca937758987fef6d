import { expect, expectNoAxeViolations, kitSection, openKit, test } from './support/kit';

test.describe('drawers', () => {
  test('a dismissible drawer takes focus, closes on Escape and gives focus back', async ({
    page,
  }) => {
    await openKit(page);
    const opener = kitSection(page, 'Drawers').getByRole('button', {
      name: 'Open dismissible panel',
    });
    await opener.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Request details' });
    await expect(drawer).toBeVisible();
    await expect(drawer).toHaveAttribute('data-state', 'open');
    await expect(drawer.getByRole('button', { name: 'Close' })).toBeFocused();
    await expectNoAxeViolations(page, ['dialog[open]']);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('a dismissible drawer closes on a click outside it', async ({ page }) => {
    await openKit(page);
    await kitSection(page, 'Drawers')
      .getByRole('button', { name: 'Open dismissible panel' })
      .click();
    const drawer = page.getByRole('dialog', { name: 'Request details' });
    await expect(drawer).toBeVisible();
    await drawer.getByText(/Press Escape/).click();
    await expect(drawer).toBeVisible();
    await page.mouse.click(20, 300);
    await expect(drawer).toBeHidden();
  });

  test('a dismissible drawer closes with its close button', async ({ page }) => {
    await openKit(page);
    const opener = kitSection(page, 'Drawers').getByRole('button', { name: 'Open navigation' });
    await opener.click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await drawer.getByRole('button', { name: 'Close' }).press('Enter');
    await expect(drawer).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('a drawer that is not dismissible ignores Escape and clicks outside', async ({ page }) => {
    await openKit(page);
    const opener = kitSection(page, 'Drawers').getByRole('button', {
      name: 'Open non-dismissible panel',
    });
    await opener.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Confirm your details' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Close' })).toHaveCount(0);
    await expect(drawer.getByRole('button', { name: 'Done' })).toBeFocused();
    // Twice: some browsers close a dialog on a second Escape unless told not to.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.mouse.click(20, 300);
    await expect(drawer).toBeVisible();
    await expect(drawer).toHaveAttribute('data-state', 'open');
    await expectNoAxeViolations(page, ['dialog[open]']);
    await drawer.getByRole('button', { name: 'Done' }).press('Enter');
    await expect(drawer).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('the page behind an open drawer is inert and does not scroll', async ({ page }) => {
    await openKit(page);
    const section = kitSection(page, 'Drawers');
    const behind = section.getByRole('button', { name: 'Open dismissible panel' });
    await section.getByRole('button', { name: 'Open non-dismissible panel' }).click();
    const drawer = page.getByRole('dialog', { name: 'Confirm your details' });
    await expect(drawer).toBeVisible();
    const box = await behind.boundingBox();
    if (!box) throw new Error('the opener behind has no box');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(page.getByRole('dialog', { name: 'Request details' })).toBeHidden();
    await expect(drawer).toBeVisible();
    expect(await page.evaluate(() => document.querySelectorAll('dialog:modal').length)).toBe(1);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
      'hidden',
    );
  });

  test('a navigation drawer is 275px and a panel 660px wide on wider screens', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openKit(page);
    const section = kitSection(page, 'Drawers');
    await section.getByRole('button', { name: 'Open navigation' }).click();
    const nav = page.getByRole('dialog', { name: 'Navigation' });
    await expect.poll(async () => (await nav.boundingBox())?.x).toBe(0);
    expect((await nav.boundingBox())?.width).toBe(275);
    await page.keyboard.press('Escape');
    await section.getByRole('button', { name: 'Open dismissible panel' }).click();
    const panel = page.getByRole('dialog', { name: 'Request details' });
    await expect.poll(async () => (await panel.boundingBox())?.x).toBe(1280 - 660);
    expect((await panel.boundingBox())?.width).toBe(660);
  });

  test('a drawer takes the full width of a small screen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 700 });
    await openKit(page);
    await kitSection(page, 'Drawers').getByRole('button', { name: 'Open navigation' }).click();
    const nav = page.getByRole('dialog', { name: 'Navigation' });
    await expect.poll(async () => (await nav.boundingBox())?.width).toBe(375);
  });

  test('top and bottom drawers sit against their edge', async ({ page }) => {
    await page.setViewportSize({ width: 1000, height: 700 });
    await openKit(page);
    const section = kitSection(page, 'Drawers');
    await section.getByRole('button', { name: 'Open top drawer' }).click();
    const top = page.getByRole('dialog', { name: 'Announcements' });
    await expect.poll(async () => (await top.boundingBox())?.y).toBe(0);
    expect((await top.boundingBox())?.width).toBe(1000);
    await page.keyboard.press('Escape');
    await section.getByRole('button', { name: 'Open bottom drawer' }).click();
    const bottom = page.getByRole('dialog', { name: 'Filters' });
    await expect
      .poll(async () => {
        const box = await bottom.boundingBox();
        return box ? Math.round(box.y + box.height) : 0;
      })
      .toBe(700);
  });

  test('a drawer slides in over 0.3 seconds, and not at all under reduced motion', async ({
    page,
  }) => {
    await openKit(page);
    const durationOf = () =>
      page
        .getByRole('dialog', { name: 'Request details', includeHidden: true })
        .evaluate((element) => getComputedStyle(element).transitionDuration.split(',')[0]);
    expect(await durationOf()).toBe('0.3s');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await durationOf()).toBe('0s');
  });
});
