import { expect, test } from '@playwright/test';
import { signIn, signOut, waitForHydration } from './support/journeys';

test('signing out ends the session and says so in a toast that can be closed', async ({ page }) => {
  await page.goto('/sign-in');
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);

  await signOut(page);
  await expect(page).toHaveURL(/\/sign-in$/);
  const notifications = page.getByRole('region', { name: 'Notifications' });
  await expect(notifications.getByText('You have been signed out.')).toBeVisible();

  await waitForHydration(page);
  await notifications.getByRole('button', { name: 'Close' }).click();
  await expect(notifications.getByText('You have been signed out.')).toHaveCount(0);

  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/sign-in$/);
});

test('the toast is shown once: a reload does not bring it back', async ({ page }) => {
  await page.goto('/sign-in');
  await signIn(page);
  await signOut(page);
  await expect(page.getByText('You have been signed out.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('You have been signed out.')).toHaveCount(0);
});

test('other parts of the page can send toasts through the global handle', async ({ page }) => {
  await page.goto('/sign-in');
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.waitForFunction(() => 'portalNotifications' in window);
  await page.evaluate(() => window.portalNotifications?.send({ message: 'Request sent' }));
  await expect(
    page.getByRole('region', { name: 'Notifications' }).getByText('Request sent'),
  ).toBeVisible();
});
