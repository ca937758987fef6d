import type { AstroCookies } from 'astro';
import { paths } from '../../routes';
import type { SignedIn } from '../api/sign-in';
import { takeReturnTo } from './return-to';
import {
  startSession,
  writeMfaStep,
  writeMfaToken,
  type MfaStep,
  type WebSession,
} from './session';

interface SignInContext {
  readonly cookies: AstroCookies;
  readonly locals: { session: WebSession; xsrfToken: string };
}

/** Starts the session a sign-in answered with; returns the MFA step it asks for, if any. */
export function enterSession(context: SignInContext, answer: SignedIn): MfaStep | undefined {
  startSession(context, answer);
  // A remembered device, or a company's trusted provider, took the step with the sign-in.
  if (answer.mfaToken) writeMfaToken(context, answer.mfaToken, answer.expiresAt);
  const step: MfaStep | undefined = answer.mfaRequired
    ? 'verification-required'
    : answer.mfaRequiresVerification
      ? 'enrollment-available'
      : undefined;
  writeMfaStep(context.cookies, step, answer.expiresAt);
  return step;
}

/**
 * Starts the session and says where the member goes: the MFA page when the answer asks for a step
 * (the remembered page waits until it is done), else the page they wanted, or the Dashboard.
 */
export function enterSessionAndGoOn(context: SignInContext, answer: SignedIn): string {
  if (enterSession(context, answer)) return paths.mfaEnrollment;
  return takeReturnTo(context.cookies) ?? paths.dashboard;
}
