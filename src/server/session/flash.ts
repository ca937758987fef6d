import type { AstroCookies } from 'astro';
import { z } from 'zod';
import type { NotificationInput } from '../../stores/notifications';
import { cookieName, cookieOptions } from './cookies';

/**
 * Toasts that cross a redirect ("You have been signed out"): kept in a
 * short-lived cookie by the request that redirects, shown and forgotten by the
 * next page.
 */
const flashSchema = z
  .array(
    z.object({
      message: z.string().max(500),
      type: z.enum(['success', 'info', 'error']),
      autoDismiss: z.boolean().optional(),
    }),
  )
  .max(5);

export function addFlash(cookies: AstroCookies, notification: NotificationInput): void {
  const pending = readFlash(cookies);
  cookies.set(
    cookieName('flash'),
    JSON.stringify([...pending, notification].slice(-5)),
    cookieOptions({ maxAge: 60 }),
  );
}

function readFlash(cookies: AstroCookies): NotificationInput[] {
  const raw = cookies.get(cookieName('flash'))?.value;
  if (!raw) return [];
  try {
    const parsed = flashSchema.safeParse(JSON.parse(raw));
    return parsed.success
      ? parsed.data.map(({ message, type, autoDismiss }) => ({
          message,
          type,
          ...(autoDismiss === undefined ? {} : { autoDismiss }),
        }))
      : [];
  } catch {
    return [];
  }
}

/** The pending toasts, once: reading them forgets them. */
export function takeFlash(cookies: AstroCookies): NotificationInput[] {
  const pending = readFlash(cookies);
  if (cookies.has(cookieName('flash'))) cookies.delete(cookieName('flash'), cookieOptions());
  return pending;
}
