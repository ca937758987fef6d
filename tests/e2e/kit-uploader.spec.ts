import type { Locator, Page } from '@playwright/test';
import {
  consoleMessages,
  expect,
  expectNoAxeViolations,
  kitSection,
  openKit,
  test,
} from './support/kit';

/** The wrapper of the gallery uploader labelled `label`, with its own upload button and log. */
function uploaderExample(page: Page, label: string): Locator {
  return kitSection(page, 'File uploader')
    .locator('div')
    .filter({ has: page.getByRole('group', { name: label, exact: true }) })
    .filter({ has: page.getByRole('log') })
    .last();
}

async function chooseFile(
  page: Page,
  example: Locator,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await example.getByRole('button', { name: 'Choose a file' }).click();
  await (await chooser).setFiles(file);
}

/** The chosen file of an uploader example (its list, not the event log). */
function chosenFile(example: Locator): Locator {
  return example.getByRole('list', { name: 'Chosen file' }).getByRole('listitem');
}

const notes = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello world') };

test.describe('file uploader', () => {
  test('starts empty with a drop zone and a "Choose a file" button', async ({ page }) => {
    await openKit(page);
    const zone = page.getByRole('group', { name: 'Attachment', exact: true });
    await expect(zone.getByText('Drag and drop file here or')).toBeVisible();
    await expect(zone.getByRole('button', { name: 'Choose a file' })).toBeVisible();
  });

  test('works from the keyboard: choose, list, remove', async ({ page }) => {
    await openKit(page);
    const example = uploaderExample(page, 'Attachment');
    const choose = example.getByRole('button', { name: 'Choose a file' });
    await choose.focus();
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    const fileChooser = await chooser;
    expect(fileChooser.isMultiple()).toBe(false);
    await fileChooser.setFiles(notes);
    const item = chosenFile(example);
    await expect(item).toContainText('notes.txt');
    await expect(item).toContainText('11 Bytes');
    await expect(item.getByRole('status')).toHaveText('Pending');
    await expectNoAxeViolations(page, ['section[aria-labelledby="kit-uploader"]']);
    await page.keyboard.press('Tab');
    await expect(example.getByRole('button', { name: 'Remove notes.txt' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(example.getByRole('list', { name: 'Chosen file' })).toHaveCount(0);
    await expect(choose).toBeFocused();
    await expect(example.getByRole('log')).toContainText('file-change: none');
  });

  test('a second file replaces the first', async ({ page }) => {
    await openKit(page);
    const example = uploaderExample(page, 'Attachment');
    await chooseFile(page, example, notes);
    await chooseFile(page, example, { ...notes, name: 'second.txt' });
    await expect(chosenFile(example)).toHaveCount(1);
    await expect(chosenFile(example)).toContainText('second.txt');
  });

  test('takes a dropped file, saying "Drop file to add" while it is dragged over', async ({
    page,
  }) => {
    await openKit(page);
    const zone = page.getByRole('group', { name: 'Attachment', exact: true });
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['dropped'], 'dropped.txt', { type: 'text/plain' }));
      return transfer;
    });
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await zone.dispatchEvent('dragover', { dataTransfer });
    await expect(zone.getByText('Drop file to add')).toBeVisible();
    await expect(zone).toHaveAttribute('data-dragging', '');
    await expectNoAxeViolations(page, ['section[aria-labelledby="kit-uploader"]']);
    await zone.dispatchEvent('drop', { dataTransfer });
    await expect(zone.getByText('Drag and drop file here or')).toBeVisible();
    await expect(chosenFile(uploaderExample(page, 'Attachment'))).toContainText('dropped.txt');
  });

  test('stops showing "Drop file to add" when the file is dragged away', async ({ page }) => {
    await openKit(page);
    const zone = page.getByRole('group', { name: 'Attachment', exact: true });
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['x'], 'x.txt'));
      return transfer;
    });
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await expect(zone.getByText('Drop file to add')).toBeVisible();
    await zone.dispatchEvent('dragleave', { dataTransfer });
    await expect(zone.getByText('Drag and drop file here or')).toBeVisible();
  });

  test('refuses a file over 25 MB chosen in the picker', async ({ page }) => {
    await openKit(page);
    const example = uploaderExample(page, 'Attachment');
    await chooseFile(page, example, {
      name: 'huge.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(26214401),
    });
    await expect(example.getByRole('alert')).toHaveText(
      'File size exceeds 25 MB, please upload a smaller file.',
    );
    await expect(chosenFile(example)).toHaveCount(0);
    await expectNoAxeViolations(page, ['section[aria-labelledby="kit-uploader"]']);
  });

  test('refuses a dropped file over 25 MB but takes one of exactly 25 MB', async ({ page }) => {
    await openKit(page);
    const zone = page.getByRole('group', { name: 'Attachment', exact: true });
    const example = uploaderExample(page, 'Attachment');
    const transferOf = (size: number) =>
      page.evaluateHandle((bytes) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], `file-${bytes}.bin`));
        return transfer;
      }, size);
    await zone.dispatchEvent('drop', { dataTransfer: await transferOf(26214401) });
    await expect(example.getByRole('alert')).toHaveText(
      'File size exceeds 25 MB, please upload a smaller file.',
    );
    await zone.dispatchEvent('drop', { dataTransfer: await transferOf(26214400) });
    await expect(example.getByRole('alert')).toHaveCount(0);
    await expect(chosenFile(example)).toContainText('25 MB');
  });

  test('uploads with a rising progress bar, then shows Uploaded with a check mark', async ({
    page,
  }) => {
    await openKit(page);
    const example = uploaderExample(page, 'Attachment');
    await chooseFile(page, example, {
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(16 * 1024 * 1024, 7),
    });
    await expect(chosenFile(example)).toContainText('16 MB');
    await page.evaluate(() => {
      const seen: number[] = [];
      Reflect.set(window, 'progressSeen', seen);
      new MutationObserver(() => {
        const bar = document.querySelector('progress[aria-label="Uploading big.bin"]');
        const value = bar?.getAttribute('value');
        if (value !== null && value !== undefined) seen.push(Number(value));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await example.getByRole('button', { name: 'Upload: attachment' }).click();
    const status = chosenFile(example).getByRole('status');
    await expect(status).toHaveText('Uploading');
    await expect(example.getByRole('progressbar', { name: 'Uploading big.bin' })).toBeVisible();
    await expect(example.locator('span', { hasText: /^\d+%$/ })).toBeVisible();
    await expect(status).toHaveText('Uploaded', { timeout: 20_000 });
    await expect(status.locator('svg')).toHaveCount(1);
    await expect(example.getByRole('log')).toContainText('uploaded: big.bin (200)');
    const seen = await page.evaluate(() => Reflect.get(window, 'progressSeen') as number[]);
    expect(
      seen.some((value) => value > 0 && value < 100),
      `progress seen: ${seen.join(',')}`,
    ).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    await expectNoAxeViolations(page, ['section[aria-labelledby="kit-uploader"]']);
  });

  test('a 500 answer raises an error with the file, status and response', async ({ page }) => {
    const logged = consoleMessages(page);
    await openKit(page);
    const example = uploaderExample(page, 'Attachment (storage answers 500)');
    await chooseFile(page, example, notes);
    await example.getByRole('button', { name: 'Upload: answers 500' }).click();
    await expect(example.getByRole('log')).toContainText('upload-error: status 500');
    await expect(example.getByRole('alert')).toContainText('could not be uploaded');
    await expect(chosenFile(example).getByRole('status')).toHaveText('Pending');
    expect(logged.errors.join('\n')).toContain(
      'Upload of "notes.txt" failed: 500 Internal Server Error Simulated storage failure',
    );
    await expectNoAxeViolations(page, ['section[aria-labelledby="kit-uploader"]']);
  });

  test('a dropped connection emits the upload-error event and logs where to look', async ({
    page,
  }) => {
    const logged = consoleMessages(page);
    await openKit(page);
    const example = uploaderExample(page, 'Attachment (connection drops)');
    await chooseFile(page, example, notes);
    await example.getByRole('button', { name: 'Upload: connection drops' }).click();
    // The drop comes when the server closes the half-answered connection: its keep-alive timeout.
    await expect(example.getByRole('log')).toContainText('upload-error: network', {
      timeout: 15_000,
    });
    const errors = logged.errors.join('\n');
    expect(errors).toContain('connection');
    expect(errors).toContain('cross-origin');
    expect(errors).toContain('address');
  });

  test('an upload without an address is refused with a logged error', async ({ page }) => {
    const logged = consoleMessages(page);
    await openKit(page);
    const example = uploaderExample(page, 'Attachment (no address)');
    await chooseFile(page, example, notes);
    await example.getByRole('button', { name: 'Upload: no address' }).click();
    await expect.poll(() => logged.errors.join('\n')).toContain('no upload address is set');
    await expect(example.getByRole('log')).not.toContainText('upload-start');
  });

  test('an upload without a file is refused with a logged error', async ({ page }) => {
    const logged = consoleMessages(page);
    await openKit(page);
    await uploaderExample(page, 'Attachment')
      .getByRole('button', { name: 'Upload: attachment' })
      .click();
    await expect.poll(() => logged.errors.join('\n')).toContain('exactly one file is needed');
  });

  test('an image shows a preview', async ({ page }) => {
    await openKit(page);
    const example = uploaderExample(page, 'Attachment');
    const pixel = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    await chooseFile(page, example, { name: 'dot.png', mimeType: 'image/png', buffer: pixel });
    await expect(chosenFile(example).locator('img')).toHaveAttribute('src', /^blob:/);
  });
});
