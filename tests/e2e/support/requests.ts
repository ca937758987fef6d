import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page } from '@playwright/test';
import { newPerson, signUp } from './accounts';
import { waitForHydration } from './journeys';
import { firstSubmitOnFreshServer } from './patience';

/**
 * A new member, signed up and past the phone offer ("Skip for now"), on the Dashboard: requests
 * are per member, so every test that makes some starts with a member of its own.
 */
export async function signUpNewMember(
  page: Page,
  origin: string,
  { firstName = 'Casey', javaScript = true }: { firstName?: string; javaScript?: boolean } = {},
): Promise<ReturnType<typeof newPerson>> {
  const person = newPerson(firstName);
  await page.goto(`${origin}/sign-up`);
  if (javaScript) await waitForHydration(page);
  await signUp(page, person);
  // Often the first account made on its fresh server.
  await expect(page).toHaveURL(`${origin}/mfa-enrollment`, firstSubmitOnFreshServer);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).not.toHaveURL(`${origin}/mfa-enrollment`);
  await page.goto(`${origin}/dashboard`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${firstName}`);
  return person;
}

/**
 * The islands named (by their component, e.g. `NewRequest`) have hydrated. Signed-in pages also
 * hold islands that hydrate only when seen (the small-screen menu), so waiting for every island
 * would wait forever on a wide screen.
 */
export async function waitForIslands(page: Page, ...names: string[]): Promise<void> {
  for (const name of names) {
    await expect(
      page.locator(`astro-island[component-url*="/${name}."]`).first(),
    ).not.toHaveAttribute('ssr');
  }
}

/** A file to attach: random bytes, so that a download that differs in one byte is caught. */
export function someFile(name: string, byteSize: number, mimeType = 'application/pdf') {
  return { name, mimeType, buffer: randomBytes(byteSize) };
}

/** The bytes of a finished download. */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const file = await download.path();
  return readFile(file);
}

/** Chooses a file in the kit's uploader, the way a person does: "Choose a file", then the file. */
export async function chooseFile(
  page: Page,
  scope: ReturnType<Page['locator']>,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await scope.getByRole('button', { name: 'Choose a file' }).click();
  await (await chooser).setFiles(file);
}

/** Makes a request through the Dashboard's drawer (JavaScript on) and waits for its page. */
export async function makeRequestInDrawer(
  page: Page,
  origin: string,
  { category, title, details = '' }: { category: string; title: string; details?: string },
): Promise<string> {
  await page.goto(`${origin}/dashboard`);
  await waitForIslands(page, 'NewRequest');
  await page.getByRole('button', { name: 'New request' }).click();
  const drawer = page.getByRole('dialog', { name: 'New request' });
  await drawer.getByRole('radio', { name: new RegExp(`^${category}\\b`) }).check();
  await drawer.getByLabel('Title').fill(title);
  if (details) await drawer.getByLabel('Details').fill(details);
  await drawer.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  return page.url();
}
