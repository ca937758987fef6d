import { config } from '../../server/config';

/**
 * Whether the kit gallery (and its upload target) is served: in development, or when the server
 * runs with KIT_GALLERY=true (the browser tests do). Read at run time, so one production build
 * serves it only where that variable is set. The route guard says the same; this keeps the pages
 * closed even if that guard changes.
 */
export function kitGalleryEnabled(): boolean {
  return config().kitGallery;
}
