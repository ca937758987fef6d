import type { Locator, Page } from '@playwright/test';
import { member, signIn, waitForHydration } from './support/journeys';
import { expect, openKit, test } from './support/kit';

/**
 * Every checkbox and radio of the product is a chip around a native input, and the people who
 * drive the product from their own scripts write Playwright's idiomatic `check()` and `uncheck()`:
 * each kind of chip takes them, and shows the state that took, without moving anything.
 */

/** The chip around a radio or checkbox: the input's label. */
function chipOf(control: Locator): Locator {
  return control.locator('xpath=ancestor::label');
}

/** The chip's check mark: the last drawing in it, there whether or not it shows. */
function markOf(control: Locator): Locator {
  return chipOf(control).locator('svg').last();
}

/** The chip's box, once scrolled into view (as `check()` does first). */
async function chipBox(control: Locator) {
  await control.scrollIntoViewIfNeeded();
  return chipOf(control).boundingBox();
}

/** Checks `control`, expects it checked and its chip to show it, in the same place and size. */
async function checkAndSee(control: Locator): Promise<void> {
  const before = await chipBox(control);
  await control.check();
  await expect(control).toBeChecked();
  await expect(markOf(control)).toBeVisible();
  expect(await chipBox(control)).toEqual(before);
}

/** Unchecks `control`, expects it unchecked and its chip to show it, in the same place and size. */
async function uncheckAndSee(control: Locator): Promise<void> {
  const before = await chipBox(control);
  await control.uncheck();
  await expect(control).not.toBeChecked();
  await expect(markOf(control)).toBeHidden();
  expect(await chipBox(control)).toEqual(before);
}

// No transitions or slides: the chips' boxes are compared before and after, not in between.
test.use({ reducedMotion: 'reduce' });

async function signInAsMember(page: Page): Promise<void> {
  await page.goto('/sign-in');
  await signIn(page, member);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('the kit gallery’s checkbox and radio chips take check() and uncheck()', async ({ page }) => {
  await openKit(page);
  const topics = page.getByRole('group', { name: 'Checkbox chips: topics' });
  const wills = topics.getByRole('checkbox', { name: /^Wills\b/ });
  await checkAndSee(wills);
  await expect(chipOf(wills)).toHaveAttribute('data-selected', '');
  await uncheckAndSee(wills);
  await expect(chipOf(wills)).not.toHaveAttribute('data-selected');
  // Checked from the start, and a chip in error, alike.
  await uncheckAndSee(topics.getByRole('checkbox', { name: /^Trusts\b/ }));
  await checkAndSee(topics.getByRole('checkbox', { name: /^Estate\b/ }));
  await expect(topics.getByRole('checkbox', { name: /^Probate\b/ })).toBeDisabled();

  const cover = page.getByRole('group', { name: 'Radio chips: cover type' });
  const life = cover.getByRole('radio', { name: /^Life\b/ });
  const home = cover.getByRole('radio', { name: /^Home\b/ });
  await expect(life).toBeChecked();
  await checkAndSee(home);
  await expect(life).not.toBeChecked();
  await expect(chipOf(life)).not.toHaveAttribute('data-selected');
  await expect(markOf(life)).toBeHidden();
  await checkAndSee(life);
  await expect(home).not.toBeChecked();

  // The keyboard's focus shows on the chip, since its input cannot be seen.
  await home.press('Space');
  await expect(home).toBeFocused();
  await expect(chipOf(home)).toHaveCSS('outline-style', 'solid');
});

test('the terms of service box on sign-up takes check() and uncheck()', async ({ page }) => {
  await page.goto('/sign-up');
  await waitForHydration(page);
  const terms = page.getByRole('checkbox', { name: /^I accept the terms of service/ });
  await checkAndSee(terms);
  await uncheckAndSee(terms);
});

// Nothing is saved: the demo member's answers stay as other tests left them.
test('the welcome pages’ chips take check() and uncheck()', async ({ page }) => {
  await signInAsMember(page);

  await page.goto('/welcome/about-you');
  await waitForHydration(page);
  const travel = page.getByRole('checkbox', { name: /^Travel\b/ });
  await uncheckAndSee(travel);
  await checkAndSee(travel);
  await uncheckAndSee(travel);

  await page.goto('/welcome/contact-info');
  await waitForHydration(page);
  const email = page.getByRole('radio', { name: /^Email\b/ });
  const call = page.getByRole('radio', { name: /^Phone call\b/ });
  await checkAndSee(email);
  await checkAndSee(call);
  await expect(email).not.toBeChecked();
  await expect(markOf(email)).toBeHidden();
});

test('the new request’s category chips take check()', async ({ page }) => {
  await signInAsMember(page);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'New request' }).click();
  const drawer = page.getByRole('dialog', { name: 'New request' });
  const travel = drawer.getByRole('radio', { name: /^Travel\b/ });
  const errands = drawer.getByRole('radio', { name: /^Everyday errands\b/ });
  await checkAndSee(travel);
  await checkAndSee(errands);
  await expect(travel).not.toBeChecked();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('a chip shows what its input holds, with no script to tell it', async ({ page }) => {
    await signInAsMember(page);
    await page.goto('/welcome/about-you');
    const errands = page.getByRole('checkbox', { name: /^Everyday errands\b/ });
    await uncheckAndSee(errands);
    const unchecked = await chipOf(errands).evaluate((chip) => getComputedStyle(chip).background);
    await checkAndSee(errands);
    const checked = await chipOf(errands).evaluate((chip) => getComputedStyle(chip).background);
    expect(checked).not.toBe(unchecked);
    await uncheckAndSee(errands);
  });
});
