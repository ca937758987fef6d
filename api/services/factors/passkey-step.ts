import {
  generateAuthenticationOptions,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import type { Clock } from '../../../platform/clock.ts';
import { lockedUser } from '../member-factors.ts';
import {
  acceptAssertion,
  CHALLENGE_LIFETIME_MS,
  credentialDescriptor,
  keepChallenge,
  spendChallenge,
  type RelyingParty,
} from './passkey-ceremonies.ts';
import { passkeyByCredential, passkeysOf } from './passkey-store.ts';
import { completeSecondStep, type CompletedStep, type MfaRequestContext } from './step.ts';

/** A passkey taking the step of a session that signed in with its password. */

/**
 * POST /mfa/passkeys/authentication-options: a challenge for this session's step, offering the
 * member's own passkeys. Undefined when the member has none.
 */
export async function secondStepOptions(
  database: Database,
  clock: Clock,
  party: RelyingParty,
  context: Pick<MfaRequestContext, 'userId' | 'sessionId'>,
): Promise<PublicKeyCredentialRequestOptionsJSON | undefined> {
  const owned = await passkeysOf(database, context.userId);
  if (owned.length === 0) return undefined;
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    allowCredentials: owned.map(credentialDescriptor),
    userVerification: 'preferred',
    timeout: CHALLENGE_LIFETIME_MS,
  });
  await database.transaction((transaction) =>
    keepChallenge(
      transaction,
      options.challenge,
      { purpose: 'second_step', sessionId: context.sessionId, userId: context.userId },
      clock.now(),
    ),
  );
  return options;
}

type PasskeyStepResult = ({ verified: true } & CompletedStep) | { verified: false };

/**
 * POST /mfa/passkeys/verify: one of the member's passkeys answers this session's challenge and
 * takes the MFA step. A passkey cannot be guessed as a code can, so a refusal is not counted
 * toward the account's cap on wrong codes, and paused codes do not stop it.
 */
export function verifyPasskeyStep(
  database: Database,
  clock: Clock,
  context: MfaRequestContext,
  input: { credential: AuthenticationResponseJSON; party: RelyingParty; origin: RequestOrigin },
): Promise<PasskeyStepResult> {
  const now = clock.now();
  return database.transaction(async (transaction): Promise<PasskeyStepResult> => {
    const user = await lockedUser(transaction, context.userId);
    if (!user) return { verified: false };
    const challenge = await spendChallenge(
      transaction,
      input.credential.response.clientDataJSON,
      { purpose: 'second_step', sessionId: context.sessionId },
      now,
    );
    if (challenge === undefined) return { verified: false };
    const passkey = await passkeyByCredential(transaction, input.credential.id);
    if (passkey?.userId !== user.id) return { verified: false };
    const expected = { challenge, party: input.party, userVerification: false, now };
    if (!(await acceptAssertion(transaction, passkey, input.credential, expected))) {
      return { verified: false };
    }
    await transaction
      .update(users)
      .set({ lastSecondFactor: 'passkey', updatedAt: now })
      .where(eq(users.id, user.id));
    return {
      verified: true,
      ...(await completeSecondStep(transaction, context, now, input.origin)),
    };
  });
}
