import type { Session, User } from '../db/schema.ts';

/** A user is enrolled in MFA once a phone number has been confirmed for them. */
export function hasEnrolledMfa(user: User): boolean {
  return user.mfaPhone !== null;
}

/**
 * The MFA flags of the sign-in answer: without an enrolled phone, enrollment is offered
 * (`mfa_requires_verification`); with one, this session must be verified by a code
 * (`mfa_required`).
 */
export function signInMfaFlags(user: User): {
  mfa_requires_verification: boolean;
  mfa_required: boolean;
} {
  const enrolled = hasEnrolledMfa(user);
  return { mfa_requires_verification: !enrolled, mfa_required: enrolled };
}

/** An enrolled user's session may only be used once a code has been verified for it. */
export function sessionAwaitsMfaVerification(user: User, session: Session): boolean {
  return hasEnrolledMfa(user) && session.mfaVerifiedAt === null;
}
