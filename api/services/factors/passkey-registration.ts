import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { passkeys, users, type User } from '../../db/schema/index.ts';
import type { RequestOrigin } from '../../../platform/client-address.ts';
import type { Clock } from '../../../platform/clock.ts';
import { passkeyAddedEmail } from '../messages/factor-emails.ts';
import { lockedUser } from '../member-factors.ts';
import {
  CHALLENGE_LIFETIME_MS,
  credentialDescriptor,
  keepChallenge,
  spendChallenge,
  userHandle,
  type RelyingParty,
} from './passkey-ceremonies.ts';
import {
  describePasskey,
  PASSKEYS_PER_MEMBER,
  passkeysOf,
  type PasskeyView,
} from './passkey-store.ts';
import { completeSecondStep, type CompletedStep, type MfaRequestContext } from './step.ts';
import { strongFactorAdded } from './strong-factor-added.ts';

/** Adding a passkey from the account area: the browser's options, then what it made, kept. */

/**
 * POST /mfa/passkeys/registration-options: what the browser needs to make a passkey for the
 * member, discoverable (so it can sign in alone) and never a second one on an authenticator that
 * holds one of theirs already.
 */
export async function registrationOptions(
  database: Database,
  clock: Clock,
  party: RelyingParty,
  user: Pick<User, 'id' | 'externalId' | 'email' | 'name' | 'lastName'>,
  sessionId: number,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const now = clock.now();
  const owned = await passkeysOf(database, user.id);
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: user.email,
    userDisplayName: `${user.name} ${user.lastName}`.trim(),
    userID: userHandle(user),
    attestationType: 'none',
    timeout: CHALLENGE_LIFETIME_MS,
    excludeCredentials: owned.map(credentialDescriptor),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await database.transaction((transaction) =>
    keepChallenge(
      transaction,
      options.challenge,
      { purpose: 'registration', sessionId, userId: user.id },
      now,
    ),
  );
  return options;
}

interface AddPasskeyInput {
  name: string;
  credential: RegistrationResponseJSON;
  party: RelyingParty;
  publicOrigin: string;
  origin: RequestOrigin;
}

type AddPasskeyResult =
  | ({
      added: true;
      passkey: PasskeyView;
      /** A first set of recovery codes, made with the passkey; undefined when the member has some. */
      recoveryCodes: string[] | undefined;
    } & CompletedStep)
  | { added: false; reason: 'not_verified' | 'too_many' };

/**
 * POST /mfa/passkeys: keeps the passkey the browser made for the challenge this session was
 * given, under the member's name for it; recorded and emailed. As with an authenticator app, the
 * session has just proved the factor, so it is past its MFA step, and a member without unused
 * recovery codes gets a first set.
 */
export function addPasskey(
  database: Database,
  clock: Clock,
  context: MfaRequestContext,
  input: AddPasskeyInput,
): Promise<AddPasskeyResult> {
  const now = clock.now();
  return database.transaction(async (transaction): Promise<AddPasskeyResult> => {
    const user = await lockedUser(transaction, context.userId);
    if (!user) return { added: false, reason: 'not_verified' };
    const challenge = await spendChallenge(
      transaction,
      input.credential.response.clientDataJSON,
      { purpose: 'registration', sessionId: context.sessionId },
      now,
    );
    if (challenge === undefined) return { added: false, reason: 'not_verified' };
    if (user.passkeyCount >= PASSKEYS_PER_MEMBER) return { added: false, reason: 'too_many' };
    const verification = await verifyRegistrationResponse({
      response: input.credential,
      expectedChallenge: challenge,
      expectedOrigin: input.party.origin,
      expectedRPID: input.party.id,
      requireUserVerification: false,
    }).catch(() => undefined);
    if (!verification?.verified) return { added: false, reason: 'not_verified' };
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    const [taken] = await transaction
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(eq(passkeys.credentialId, credential.id));
    if (taken) return { added: false, reason: 'not_verified' };

    const [passkey] = await transaction
      .insert(passkeys)
      .values({
        userId: user.id,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        name: input.name,
        createdAt: now,
      })
      .returning();
    if (!passkey) throw new Error('The passkey was not stored.');
    await transaction
      .update(users)
      .set({
        passkeyCount: sql`${users.passkeyCount} + 1`,
        lastSecondFactor: 'passkey',
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    const recoveryCodes = await strongFactorAdded(transaction, {
      user,
      kind: 'passkey_added',
      email: passkeyAddedEmail(input.publicOrigin, input.name),
      origin: input.origin,
      now,
    });
    const completed = await completeSecondStep(transaction, context, now, input.origin);
    return { added: true, passkey: describePasskey(passkey), recoveryCodes, ...completed };
  });
}
