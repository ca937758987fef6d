/**
 * Whether the kit gallery (and its upload target) is served: in development, or when the server
 * runs with KIT_GALLERY=true (the browser tests do). Read at request time, so one production
 * build serves it only where that variable is set. The route guard in src/middleware.ts says the
 * same; this keeps the pages closed even if that guard changes.
 */
export function kitGalleryEnabled(): boolean {
  return import.meta.env.DEV || process.env['KIT_GALLERY'] === 'true';
}
