import type { Locator } from '@playwright/test';
import { expect, expectNoAxeViolations, kitSection, openKit, test } from './support/kit';

/** The chip (its label) around a radio or checkbox. */
function chipOf(control: Locator): Locator {
  return control.locator('xpath=ancestor::label');
}

test.describe('buttons', () => {
  test('a busy button keeps its width, says it is busy and ignores presses', async ({ page }) => {
    await openKit(page);
    const section = kitSection(page, 'Buttons');
    const save = section.getByRole('button', { name: 'Save changes' });
    const before = await save.boundingBox();
    await save.click();
    await expect(section.getByText('Pressed 1 time')).toBeVisible();
    await expect(save).toHaveAttribute('aria-disabled', 'true');
    await expect(save).toHaveAttribute('aria-busy', 'true');
    await expect(save).toHaveAccessibleName(/Save changes.*Loading/);
    expect((await save.boundingBox())?.width).toBeCloseTo(before?.width ?? 0, 0);
    // Forced: Playwright itself waits for an aria-disabled control to become enabled.
    await save.click({ force: true });
    await save.press('Enter');
    await expect(section.getByText('Pressed 1 time')).toBeVisible();
    await section.getByRole('button', { name: 'Finish saving' }).click();
    await expect(save).not.toHaveAttribute('aria-disabled');
    await save.press('Enter');
    await expect(section.getByText('Pressed 2 times')).toBeVisible();
  });
});

test.describe('text fields and the error summary', () => {
  test('a form with problems shows a focused summary linking to each field', async ({ page }) => {
    await openKit(page);
    const form = page.getByRole('form', { name: 'Contact details' });
    await form.getByRole('button', { name: 'Continue' }).click();
    const summary = form.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary).toBeFocused();
    const email = form.getByLabel('Email', { exact: true });
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(/Enter an email address/);
    await summary.getByRole('link', { name: 'Enter a 10 digit mobile number' }).click();
    await expect(form.getByLabel('Mobile number')).toBeFocused();
    await expectNoAxeViolations(page, ['section[aria-labelledby="kit-fields"]']);
  });

  test('fields that are not required say "(optional)"', async ({ page }) => {
    await openKit(page);
    const section = kitSection(page, 'Text fields');
    await expect(section.getByLabel('Middle name (optional)')).toBeVisible();
    await expect(section.getByLabel('Number of pets')).toHaveAttribute('inputmode', 'numeric');
    await expect(section.getByLabel('Details', { exact: true })).toHaveAttribute('rows', '3');
  });

  test('a phone field fits typed digits to its mask and submits no placeholders', async ({
    page,
  }) => {
    await openKit(page);
    const form = page.getByRole('form', { name: 'Contact details' });
    const mobile = form.getByLabel('Mobile number');
    await mobile.focus();
    await expect(mobile).toHaveValue('(___) ___-____');
    await expectNoAxeViolations(page, ['section[aria-labelledby="kit-fields"]']);
    await mobile.pressSequentially('555x1');
    await expect(mobile).toHaveValue('(555) 1__-____');
    await mobile.press('Backspace');
    await mobile.press('Backspace');
    await expect(mobile).toHaveValue('(55_) ___-____');
    await mobile.pressSequentially('51234567');
    await expect(mobile).toHaveValue('(555) 123-4567');
    await form.getByLabel('Email', { exact: true }).fill('member@example.com');
    await form.getByLabel('Email', { exact: true }).press('Enter');
    await expect(form.getByText('Submitted member@example.com and (555) 123-4567')).toBeVisible();
  });

  test('a whole number filled over what was typed replaces it, the field having lost focus between', async ({
    page,
  }) => {
    await openKit(page);
    const form = page.getByRole('form', { name: 'Contact details' });
    const mobile = form.getByLabel('Mobile number');
    await mobile.fill('555 12');
    await expect(mobile).toHaveValue('(555) 12_-____');
    await mobile.blur();
    await expect(mobile).toHaveValue('(555) 12');

    await mobile.fill('(555) 010-3341');

    await expect(mobile).toHaveValue('(555) 010-3341');
  });

  test('a phone field submits what was typed so far without placeholders', async ({ page }) => {
    await openKit(page);
    const form = page.getByRole('form', { name: 'Contact details' });
    const mobile = form.getByLabel('Mobile number');
    await mobile.pressSequentially('555');
    const submitted = await form.evaluate((element) => {
      if (!(element instanceof HTMLFormElement)) throw new Error('not a form');
      return new FormData(element).get('kit_mobile');
    });
    expect(submitted).toBe('(555');
  });
});

test.describe('messages', () => {
  test('a closable message fades out when "Close" is pressed', async ({ page }) => {
    await openKit(page);
    const section = kitSection(page, 'Messages');
    await section.getByRole('button', { name: 'Close' }).press('Enter');
    await expect(section.getByText('You can close this message.')).toHaveCount(0);
    await expect(section.getByText('The closable message was closed')).toBeVisible();
  });

  test('a message with a lifetime hides itself', async ({ page }) => {
    await openKit(page);
    const section = kitSection(page, 'Messages');
    await section.getByRole('button', { name: 'Show a message for 3 seconds' }).click();
    const message = section.getByText('This message hides itself after 3 seconds.');
    await expect(message).toBeVisible();
    await expect(message).toHaveCount(0, { timeout: 5000 });
  });
});

test.describe('chips', () => {
  test('a button chip toggles from the keyboard', async ({ page }) => {
    await openKit(page);
    const section = kitSection(page, 'Chips');
    const chip = section.getByRole('button', { name: 'Pet care' });
    await chip.focus();
    await expect(chip).toHaveAttribute('aria-pressed', 'false');
    await page.keyboard.press('Space');
    await expect(chip).toHaveAttribute('aria-pressed', 'true');
    await expect(chip).toHaveAttribute('data-selected', '');
    await page.keyboard.press('Enter');
    await expect(chip).toHaveAttribute('aria-pressed', 'false');
  });

  test('a disabled chip cannot be reached or pressed', async ({ page }) => {
    await openKit(page);
    const chip = kitSection(page, 'Chips').getByRole('button', { name: 'Moving house' });
    await expect(chip).toBeDisabled();
    await expect(chip).toHaveAttribute('data-disabled', '');
  });

  test('radio chips move their selection with the arrow keys', async ({ page }) => {
    await openKit(page);
    const group = page.getByRole('group', { name: 'Radio chips: cover type' });
    const life = group.getByRole('radio', { name: 'Life' });
    const home = group.getByRole('radio', { name: 'Home' });
    await life.focus();
    await page.keyboard.press('ArrowRight');
    await expect(home).toBeFocused();
    await expect(home).toBeChecked();
    await expect(chipOf(home)).toHaveAttribute('data-selected', '');
    await expect(chipOf(life)).not.toHaveAttribute('data-selected');
  });

  test('checkbox chips toggle with Space', async ({ page }) => {
    await openKit(page);
    const group = page.getByRole('group', { name: 'Checkbox chips: topics' });
    const wills = group.getByRole('checkbox', { name: 'Wills' });
    await wills.focus();
    await page.keyboard.press('Space');
    await expect(wills).toBeChecked();
    await expect(chipOf(wills)).toHaveAttribute('data-selected', '');
    await expectNoAxeViolations(page, ['section[aria-labelledby="kit-chips"]']);
    await page.keyboard.press('Space');
    await expect(chipOf(wills)).not.toHaveAttribute('data-selected');
  });

  test('an external link chip opens a new tab and says so', async ({ page }) => {
    await openKit(page);
    const link = kitSection(page, 'Chips').getByRole('link', {
      name: /^Term life insurance .*\(opens in a new tab\)$/,
    });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  test('a chip image is 5rem tall and long texts are clamped to two lines', async ({ page }) => {
    await openKit(page);
    const chip = kitSection(page, 'Chips').getByRole('button', { name: /Travel planning/ });
    const sizes = await chip.evaluate((element) => {
      const [image, text] = Array.from(element.children);
      const [title, description] = Array.from(text?.children ?? []);
      const lineHeight = (node: Element | undefined) =>
        node ? Number.parseFloat(getComputedStyle(node).lineHeight) : 0;
      return {
        image: image?.getBoundingClientRect().height ?? 0,
        rem: Number.parseFloat(getComputedStyle(document.documentElement).fontSize),
        titleLines: (title?.getBoundingClientRect().height ?? 0) / lineHeight(title),
        descriptionLines:
          (description?.getBoundingClientRect().height ?? 0) / lineHeight(description),
      };
    });
    expect(sizes.image).toBeCloseTo(5 * sizes.rem, 0);
    expect(Math.round(sizes.titleLines)).toBe(2);
    expect(Math.round(sizes.descriptionLines)).toBe(2);
  });
});
