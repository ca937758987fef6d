import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';

/**
 * The shapes of what a browser's WebAuthn call gives back (`PublicKeyCredential.toJSON()`),
 * checked before any of it reaches the library: base64url text of bounded length, the known
 * transports, and nothing the API would store without reading.
 */

/** base64url text; an attestation of an authenticator with certificates runs to a few KB. */
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/);

/** A credential id: WebAuthn caps them at 1,023 bytes, 1,364 characters of base64url. */
const credentialId = base64url(1364).min(1);

const transport = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

const common = {
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.object({}).loose().default({}),
};

export const registrationCredential = z
  .object({
    ...common,
    response: z.object({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(16_384),
      authenticatorData: base64url(4096).optional(),
      transports: z.array(transport).max(8).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url(4096).optional(),
    }),
  })
  .transform(({ authenticatorAttachment, response, ...credential }): RegistrationResponseJSON => ({
    ...credential,
    ...(authenticatorAttachment === undefined ? {} : { authenticatorAttachment }),
    response: withoutUndefined(response),
  }));

export const authenticationCredential = z
  .object({
    ...common,
    response: z.object({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(4096),
      // Up to an RSA-4096 signature, with room: the body limit caps the whole answer anyway.
      signature: base64url(4096),
      userHandle: base64url(128).optional(),
    }),
  })
  .transform(
    ({ authenticatorAttachment, response, ...credential }): AuthenticationResponseJSON => ({
      ...credential,
      ...(authenticatorAttachment === undefined ? {} : { authenticatorAttachment }),
      response: withoutUndefined(response),
    }),
  );

/** The object without its absent optional keys, as the library's types (and JSON) have them. */
function withoutUndefined<Shape extends object>(
  shape: Shape,
): { [Key in keyof Shape]: Exclude<Shape[Key], undefined> } {
  return Object.fromEntries(Object.entries(shape).filter(([, value]) => value !== undefined)) as {
    [Key in keyof Shape]: Exclude<Shape[Key], undefined>;
  };
}
