import { expect, expectNoAxeViolations, kitSection, openKit, test } from './support/kit';

test('the kit gallery shows every component section under one page heading', async ({ page }) => {
  await openKit(page);
  await expect(page).toHaveTitle(/Interface kit/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Interface kit');
  for (const title of [
    'Buttons',
    'Text fields',
    'Messages',
    'Chips',
    'Drawers',
    'Tabs',
    'File uploader',
    'Progress bars',
    'Headings',
    'Text',
    'Dates',
  ]) {
    await expect(kitSection(page, title)).toBeVisible();
  }
});

test('the kit gallery has no accessibility violations as it first shows', async ({ page }) => {
  await openKit(page);
  await expectNoAxeViolations(page);
});

test('the kit gallery does not scroll sideways on a wide or a narrow screen', async ({ page }) => {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await openKit(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `sideways overflow at ${width}px`).toBeLessThanOrEqual(0);
  }
});

test('progress bars run from 0 to 100 percent, rounded, or are indeterminate', async ({ page }) => {
  await openKit(page);
  const section = kitSection(page, 'Progress bars');
  await expect(section.getByRole('progressbar', { name: 'Not started' })).toHaveAttribute(
    'value',
    '0',
  );
  await expect(section.getByRole('progressbar', { name: 'Partly done' })).toHaveAttribute(
    'value',
    '42',
  );
  await expect(section.locator('span', { hasText: '42%' })).toBeVisible();
  await expect(section.getByRole('progressbar', { name: 'Finished' })).toHaveAttribute(
    'value',
    '100',
  );
  await expect(section.getByRole('progressbar', { name: 'Working' })).not.toHaveAttribute('value');
});

test('dates show as mm/dd/yy and weeks start on Sunday', async ({ page }) => {
  await openKit(page);
  const section = kitSection(page, 'Dates');
  await expect(section.locator('time')).toHaveText('03/05/24');
  await expect(
    section.getByRole('list', { name: 'Days of the week' }).getByRole('listitem'),
  ).toHaveText(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
});

test('headings keep their level whatever their size', async ({ page }) => {
  await openKit(page);
  const section = kitSection(page, 'Headings');
  for (const level of [3, 4, 5, 6]) {
    await expect(section.getByRole('heading', { level })).toHaveCount(2);
  }
  await expect(section.getByRole('heading', { name: 'Level 4, extra large' })).toHaveAttribute(
    'data-size',
    'xl',
  );
});

test('the upload target refuses every method but PUT', async ({ request }) => {
  const response = await request.get('/kit/upload-target');
  expect(response.status()).toBe(405);
});

test('the gallery renders on the server and hydrates without a console error', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await openKit(page);
  expect(errors).toEqual([]);
});

test('a press ripples for about 401 ms, and not at all under reduced motion', async ({ page }) => {
  await openKit(page);
  const button = kitSection(page, 'Buttons').getByRole('button', { name: 'Primary', exact: true });
  const wave = () =>
    button.locator('span[aria-hidden="true"]').evaluate((surface) => {
      const style = getComputedStyle(surface, '::after');
      return {
        display: style.display,
        opacity: Number(style.opacity),
        duration: style.transitionDuration,
      };
    });

  expect(await wave()).toMatchObject({ opacity: 0, duration: '0.401s, 0.401s' });
  await button.hover();
  await page.mouse.down();
  // Held: the wave shows, small, at once.
  await expect.poll(async () => (await wave()).opacity).toBeCloseTo(0.35);
  await page.mouse.up();
  // Released: it grows and fades out over 401 ms.
  await expect.poll(async () => (await wave()).opacity).toBe(0);

  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect((await wave()).display).toBe('none');
});

test('messages fade in 0.3 seconds, and at once under reduced motion', async ({ page }) => {
  await openKit(page);
  const message = kitSection(page, 'Messages').getByRole('status').first();
  const fade = () => message.evaluate((element) => getComputedStyle(element).transitionDuration);
  expect(await fade()).toBe('0.3s');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await fade()).toBe('0s');
});
