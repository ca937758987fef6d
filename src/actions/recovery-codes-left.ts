import type { AstroCookies } from 'astro';
import { recoveryCodeUsedMessage } from '../lib/messages';
import { addFlash } from '../server/session/flash';
import { RECOVERY_CODES_LOW } from '../../contract/limits.ts';

/**
 * After a recovery code signed the member in (the MFA step, or linking a company's sign-in), the
 * next page says how many are left, and stays until read; few left is a notice, not a success.
 */
export function tellRecoveryCodesLeft(cookies: AstroCookies, left: number): void {
  addFlash(cookies, {
    message: recoveryCodeUsedMessage(left),
    type: left <= RECOVERY_CODES_LOW ? 'info' : 'success',
    autoDismiss: false,
  });
}
