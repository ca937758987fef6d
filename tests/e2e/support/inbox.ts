import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The newest email to `to` whose subject matches, in the outbox viewer at `origin`, read as a
 * person reads an inbox (the viewer is on in the browser tests' servers).
 */
export async function newestEmail(
  page: Page,
  origin: string,
  { to, subject }: { to: string; subject: RegExp },
): Promise<Locator> {
  await page.goto(`${origin}/dev/outbox`);
  const email = page
    .getByRole('article')
    .filter({ hasText: to })
    .filter({ has: page.getByRole('heading', { name: subject }) })
    .first();
  await expect(email).toBeVisible();
  return email;
}

/** How many emails to `to` the outbox holds. */
export async function emailCount(page: Page, origin: string, to: string): Promise<number> {
  await page.goto(`${origin}/dev/outbox`);
  return page.getByRole('article').filter({ hasText: to }).count();
}

/** Follows the link in the newest matching email, as a person clicks it. */
export async function followEmailLink(
  page: Page,
  origin: string,
  message: { to: string; subject: RegExp; link: RegExp },
): Promise<void> {
  const email = await newestEmail(page, origin, message);
  await email.getByRole('link', { name: message.link }).click();
}

/** The code in the newest text message to the phone number ending in `lastDigits`. */
export async function newestCode(page: Page, origin: string, lastDigits: string): Promise<string> {
  await page.goto(`${origin}/dev/outbox`);
  const text = page
    .getByRole('article')
    .filter({
      has: page.getByRole('heading', { name: new RegExp(`Text message to .*${lastDigits}$`) }),
    })
    .first();
  const body = await text.innerText();
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  if (!code) throw new Error(`No code in the newest text to …${lastDigits}:\n${body}`);
  return code;
}
