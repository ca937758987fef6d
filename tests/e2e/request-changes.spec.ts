import { createHash } from 'node:crypto';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { decodeActionData } from '../../src/islands/island-actions';
import { cookieValue } from './support/forms';
import { expectNoAxeViolations } from './support/journeys';
import { freePort, startPortalServer, type PortalServer } from './support/portal-server';
import {
  chooseFile,
  downloadedBytes,
  makeRequestInDrawer,
  signUpNewMember,
  someFile,
  waitForIslands,
} from './support/requests';

// A server of its own: every test signs up a member (sign-ups are limited per address).
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

test('a member adds a note with a file, and sees it in the timeline', async ({ page }) => {
  await signUpNewMember(page, origin);
  await makeRequestInDrawer(page, origin, { category: 'Travel', title: 'Plan a trip to Porto' });
  const note = page.getByRole('region', { name: 'Add a note' });
  await note.scrollIntoViewIfNeeded();
  await waitForIslands(page, 'NoteForm');

  await note.getByLabel('Note').fill('The dates are flexible by a day or two.');
  const file = someFile('dates.txt', 2048, 'text/plain');
  await chooseFile(page, note, file);
  await expect(note.getByRole('status').filter({ hasText: 'Uploaded' })).toBeVisible();
  await expectNoAxeViolations(page);
  await note.getByRole('button', { name: 'Add note' }).click();

  await expect(page.getByText('Your note has been added.')).toBeVisible();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByText('You added a note')).toBeVisible();
  await expect(timeline.getByText('The dates are flexible by a day or two.')).toBeVisible();
  const download = page.waitForEvent('download');
  await timeline.getByRole('link', { name: 'dates.txt' }).click();
  expect(await downloadedBytes(await download)).toEqual(file.buffer);
});

test('an empty note is refused with a message under the field', async ({ page }) => {
  await signUpNewMember(page, origin);
  await makeRequestInDrawer(page, origin, { category: 'Travel', title: 'Rent a car in Faro' });
  const note = page.getByRole('region', { name: 'Add a note' });
  await note.scrollIntoViewIfNeeded();
  await waitForIslands(page, 'NoteForm');

  await note.getByRole('button', { name: 'Add note' }).click();
  const summary = note.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary.getByRole('link', { name: 'Write a note or add a file' })).toBeVisible();
  await expect(note.getByLabel('Note')).toHaveAttribute('aria-invalid', 'true');
});

test('a member cancels an open request after confirming, and finds it among the closed ones', async ({
  page,
}) => {
  await signUpNewMember(page, origin);
  await makeRequestInDrawer(page, origin, {
    category: 'Everyday errands',
    title: 'Pick up the dry cleaning',
  });
  const cancel = page.getByRole('region', { name: 'Cancel this request' });
  // It hydrates when seen: before that, the button would post the plain form at once.
  await cancel.scrollIntoViewIfNeeded();
  await waitForIslands(page, 'CancelRequest');
  await cancel.getByRole('button', { name: 'Cancel request' }).click();
  const question = cancel.getByText('Cancel this request? Your concierge stops working on it');
  await expect(question).toBeFocused();
  await cancel.getByRole('button', { name: 'Keep request' }).click();
  await expect(cancel.getByRole('button', { name: 'Cancel request' })).toBeFocused();

  await cancel.getByRole('button', { name: 'Cancel request' }).click();
  await cancel.getByRole('button', { name: 'Yes, cancel request' }).click();

  await expect(page.getByText('Your request has been cancelled.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Timeline' }).getByText('Cancelled')).toBeVisible();
  // A closed request takes no more notes and cannot be cancelled again.
  await expect(page.getByRole('region', { name: 'Add a note' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Cancel this request' })).toHaveCount(0);

  await page.goto(`${origin}/requests`);
  await waitForIslands(page, 'RequestTabs');
  await page.getByRole('tab', { name: 'Closed' }).click();
  await expect(
    page.getByRole('tabpanel', { name: 'Closed' }).getByRole('link', {
      name: 'Pick up the dry cleaning',
    }),
  ).toBeVisible();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('a member adds a note with a file and cancels the request with plain forms', async ({
    page,
  }) => {
    await signUpNewMember(page, origin, { firstName: 'Jordan', javaScript: false });
    await page.goto(`${origin}/dashboard#new-request`);
    const form = page.getByRole('region', { name: 'New request' });
    await form.getByRole('radio', { name: /^Family and care\b/ }).check();
    await form.getByLabel('Title').fill('Find a babysitter for Friday');
    await form.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Find a babysitter for Friday',
    );

    const note = page.getByRole('region', { name: 'Add a note' });
    await note.getByLabel('Note').fill('From 7 pm, two children.');
    const file = someFile('allergies.pdf', 40 * 1024);
    await note.getByLabel('Attachment').setInputFiles(file);
    await note.getByRole('button', { name: 'Add note' }).click();
    await expect(page.getByText('Your note has been added.')).toBeVisible();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await expect(timeline.getByText('From 7 pm, two children.')).toBeVisible();
    const download = page.waitForEvent('download');
    await timeline.getByRole('link', { name: 'allergies.pdf' }).click();
    expect(await downloadedBytes(await download)).toEqual(file.buffer);

    await page
      .getByRole('region', { name: 'Cancel this request' })
      .getByRole('button', { name: 'Cancel request' })
      .click();
    await expect(page.getByText('Your request has been cancelled.')).toBeVisible();
    await expect(timeline.getByText('Cancelled')).toBeVisible();
  });
});

test('storage on the site’s origin takes the signed upload as a raw PUT, whatever its origin', async ({
  page,
}) => {
  await signUpNewMember(page, origin);
  const content = Buffer.from('%PDF-1.4 a small file\n');
  const answer = await page.request.post(`${origin}/_actions/uploads.createDirectUpload/`, {
    headers: { origin, accept: 'application/json' },
    multipart: {
      _xsrf: await cookieValue(page.request, 'XSRF-TOKEN'),
      filename: 'raw.pdf',
      content_type: 'application/pdf',
      byte_size: String(content.byteLength),
      checksum: createHash('sha256').update(content).digest('base64'),
    },
  });
  expect(answer.status()).toBe(200);
  const ticket = decodeActionData(await answer.text()) as {
    url: string;
    method: string;
    headers: Record<string, string>;
  };
  expect(new URL(ticket.url).origin).toBe(origin);
  expect(new URL(ticket.url).pathname).toMatch(/^\/storage\/uploads\//);

  // No cookies, no Origin, no XSRF token: the signed address is the only credential.
  const stranger = await playwrightRequest.newContext();
  try {
    const altered = await stranger.put(`${ticket.url}x`, {
      headers: ticket.headers,
      data: content,
    });
    // The API's refusal (JSON), not the origin check's: the signature is what is judged.
    expect(altered.status()).toBe(403);
    expect(await altered.json()).toHaveProperty('error');
    const uploaded = await stranger.put(ticket.url, { headers: ticket.headers, data: content });
    expect(uploaded.status()).toBe(204);
    const again = await stranger.put(ticket.url, { headers: ticket.headers, data: content });
    expect(again.status()).toBe(409);
  } finally {
    await stranger.dispose();
  }
});

test('with API_ORIGIN set and that API down, storage addresses answer that the service is unavailable', async ({
  request,
}) => {
  const portal = await startPortalServer({
    env: { API_ORIGIN: `http://127.0.0.1:${await freePort()}` },
  });
  try {
    const upload = await request.put(`${portal.baseURL}/storage/uploads/anything`, {
      headers: { 'content-type': 'application/pdf' },
      data: Buffer.from('%PDF-1.4'),
    });
    expect(upload.status()).toBe(503);
    expect(await upload.text()).toContain('the service is unavailable');
    const download = await request.get(`${portal.baseURL}/storage/files/anything`);
    expect(download.status()).toBe(503);
  } finally {
    await portal.stop();
  }
});
