import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/**
 * A WebAuthn authenticator in software, for tests that run in Node without a browser: it plays
 * both the browser (clientDataJSON, the JSON encoding) and a platform authenticator holding
 * ES256 (P-256) passkeys, with attestation "none" as passkey providers give. It signs whatever
 * it is asked to, so that the tests can also forge what a broken or hostile client would send
 * (another challenge, origin or rpId, an old counter, no user verification).
 */

/** The authenticator data flags (section 6.1 of the WebAuthn specification). */
const FLAG = {
  userPresent: 0x01,
  userVerified: 0x04,
  backupEligible: 0x08,
  backedUp: 0x10,
  attestedCredentialData: 0x40,
} as const;

/** COSE identifiers (RFC 9052, 9053) of an EC2 P-256 key for ES256. */
const COSE = {
  keyType: 1,
  algorithm: 3,
  curve: -1,
  x: -2,
  y: -3,
  ec2: 2,
  es256: -7,
  p256: 1,
} as const;

export interface RegistrationFlags {
  /** UV: the device's lock was checked (default true, as a platform authenticator does). */
  userVerified?: boolean;
  /** BS: the passkey is synced now (default false). */
  backedUp?: boolean;
  /** BE: the passkey may be synced (default: as `backedUp`, since BS without BE is invalid). */
  backupEligible?: boolean;
}

export interface AuthenticationChoice {
  /** Answer with this credential even if the request does not allow it (another member's). */
  credentialId?: string;
  /** The signature counter to report, instead of the next one; the stored one stays as it was. */
  counter?: number;
  /** UV (default true). */
  userVerified?: boolean;
  /** Sign another challenge than the request's (a replayed or stale one). */
  challenge?: string;
  /** Hash another rpId than the credential's into the authenticator data. */
  rpId?: string;
}

/** What the authenticator keeps of a passkey it made. */
export interface StoredCredential {
  /** base64url, as the server stores it. */
  id: string;
  rpId: string;
  /** base64url, the `user.id` of the registration options, given back at each sign-in. */
  userHandle: string;
  privateKey: KeyObject;
  /** The counter of the last signature (0 after the registration). */
  signCount: number;
  backupEligible: boolean;
  backedUp: boolean;
}

export interface SoftwareAuthenticator {
  register(
    options: PublicKeyCredentialCreationOptionsJSON,
    origin: string,
    flags?: RegistrationFlags,
  ): RegistrationResponseJSON;
  authenticate(
    options: PublicKeyCredentialRequestOptionsJSON,
    origin: string,
    choose?: AuthenticationChoice,
  ): AuthenticationResponseJSON;
  /** The passkeys it holds, oldest first. */
  readonly credentials: readonly StoredCredential[];
}

export function createSoftwareAuthenticator(): SoftwareAuthenticator {
  const credentials: StoredCredential[] = [];

  function register(
    options: PublicKeyCredentialCreationOptionsJSON,
    origin: string,
    flags: RegistrationFlags = {},
  ): RegistrationResponseJSON {
    // A browser refuses these before any authenticator is asked; failing loudly here shows a
    // test that the server's options are wrong rather than letting it go on to a vague 422.
    if (!options.pubKeyCredParams.some((parameter) => parameter.alg === COSE.es256)) {
      throw new Error('NotSupportedError: the options do not accept ES256 (-7).');
    }
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const excluded = new Set((options.excludeCredentials ?? []).map((descriptor) => descriptor.id));
    if (credentials.some((held) => held.rpId === rpId && excluded.has(held.id))) {
      throw new Error('InvalidStateError: this authenticator already holds an excluded passkey.');
    }

    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    if (jwk.x === undefined || jwk.y === undefined) throw new Error('No EC point in the key.');
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [COSE.keyType, COSE.ec2],
        [COSE.algorithm, COSE.es256],
        [COSE.curve, COSE.p256],
        [COSE.x, Buffer.from(jwk.x, 'base64url')],
        [COSE.y, Buffer.from(jwk.y, 'base64url')],
      ]),
    );
    const credentialId = randomBytes(32);
    const backedUp = flags.backedUp ?? false;
    const credential: StoredCredential = {
      id: credentialId.toString('base64url'),
      rpId,
      userHandle: options.user.id,
      privateKey,
      signCount: 0,
      backupEligible: flags.backupEligible ?? backedUp,
      backedUp,
    };

    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(credentialId.length);
    const authenticatorData = Buffer.concat([
      authenticatorDataHeader(rpId, {
        flags:
          FLAG.attestedCredentialData |
          backupFlags(credential) |
          userFlags(flags.userVerified ?? true),
        signCount: credential.signCount,
      }),
      Buffer.alloc(16), // The AAGUID: zeros, as attestation "none" leaves it unproven anyway.
      credentialIdLength,
      credentialId,
      coseKey,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()], // "none": an empty statement, as a Map.
        ['authData', authenticatorData],
      ]),
    );
    const clientDataJSON = clientData('webauthn.create', options.challenge, origin);

    credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        // What a current browser's toJSON() adds; servers may read them instead of the CBOR.
        authenticatorData: authenticatorData.toString('base64url'),
        publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64url'),
        publicKeyAlgorithm: COSE.es256,
        transports: ['internal'],
      },
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  function authenticate(
    options: PublicKeyCredentialRequestOptionsJSON,
    origin: string,
    choose: AuthenticationChoice = {},
  ): AuthenticationResponseJSON {
    const credential = pickCredential(options, choose.credentialId);
    // A browser would not even offer a passkey of another rpId: only a deliberate rpId is forged.
    if (
      choose.rpId === undefined &&
      options.rpId !== undefined &&
      options.rpId !== credential.rpId
    ) {
      throw new Error(
        `NotAllowedError: the request is for rpId ${options.rpId}, the passkey for ${credential.rpId}.`,
      );
    }
    let signCount: number;
    if (choose.counter === undefined) {
      credential.signCount += 1;
      signCount = credential.signCount;
    } else {
      signCount = choose.counter;
    }

    const authenticatorData = authenticatorDataHeader(choose.rpId ?? credential.rpId, {
      flags: backupFlags(credential) | userFlags(choose.userVerified ?? true),
      signCount,
    });
    const clientDataJSON = clientData(
      'webauthn.get',
      choose.challenge ?? options.challenge,
      origin,
    );
    // DER is node's default encoding of ECDSA signatures, and what WebAuthn expects for ES256.
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      credential.privateKey,
    );

    return {
      id: credential.id,
      rawId: credential.id,
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * The credential to answer with: the one asked for by id; else, as a browser does, the first
   * allowed one this authenticator holds; with no list (a discoverable sign-in), the newest.
   */
  function pickCredential(
    options: PublicKeyCredentialRequestOptionsJSON,
    credentialId: string | undefined,
  ): StoredCredential {
    if (credentialId !== undefined) {
      const chosen = credentials.find((held) => held.id === credentialId);
      if (!chosen) throw new Error(`This authenticator holds no credential ${credentialId}.`);
      return chosen;
    }
    const allowed = options.allowCredentials ?? [];
    if (allowed.length > 0) {
      for (const descriptor of allowed) {
        const held = credentials.find((credential) => credential.id === descriptor.id);
        if (held) return held;
      }
      throw new Error('NotAllowedError: this authenticator holds none of the allowed passkeys.');
    }
    const newest = credentials.at(-1);
    if (!newest) throw new Error('NotAllowedError: this authenticator holds no passkey.');
    return newest;
  }

  return { register, authenticate, credentials };
}

function sha256(data: Uint8Array | string): Buffer {
  return createHash('sha256').update(data).digest();
}

/** rpIdHash | flags | signCount: the part of the authenticator data every ceremony has. */
function authenticatorDataHeader(
  rpId: string,
  { flags, signCount }: { flags: number; signCount: number },
): Buffer {
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(signCount);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter]);
}

/** UP is always set: a test never stands for an authenticator nobody touched. */
function userFlags(userVerified: boolean): number {
  return FLAG.userPresent | (userVerified ? FLAG.userVerified : 0);
}

function backupFlags(credential: Pick<StoredCredential, 'backupEligible' | 'backedUp'>): number {
  return (
    (credential.backupEligible ? FLAG.backupEligible : 0) |
    (credential.backedUp ? FLAG.backedUp : 0)
  );
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}
