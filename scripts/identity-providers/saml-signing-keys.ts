import { type KeyObject, generateKeyPair, randomBytes, sign } from 'node:crypto';

/**
 * Signing keys of the test SAML identity provider: an RSA key and a self-signed certificate of it,
 * made when the provider starts, so that nothing secret is stored.
 */

/** A signing key and its self-signed certificate, both PEM. */
export interface SamlSigningKey {
  readonly privateKey: string;
  readonly certificate: string;
}

/**
 * A 2048-bit RSA key and a self-signed X.509 certificate of it (samlify's metadata and KeyInfo
 * want a certificate, not a bare public key). The certificate is built here in DER: node:crypto
 * reads certificates but does not make them, and no fixture has to be kept.
 */
export async function createSamlSigningKey(commonName: string): Promise<SamlSigningKey> {
  const { publicKey, privateKey } = await new Promise<{
    publicKey: KeyObject;
    privateKey: KeyObject;
  }>((resolve, reject) => {
    generateKeyPair('rsa', { modulusLength: 2048 }, (error, publicKey, privateKey) => {
      if (error) reject(error);
      else resolve({ publicKey, privateKey });
    });
  });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificate: selfSignedCertificate(commonName, publicKey, privateKey),
  };
}

const DAY_MS = 24 * 60 * 60_000;
const SHA256_WITH_RSA_OID = Buffer.from('06092a864886f70d01010b', 'hex');
const COMMON_NAME_OID = Buffer.from('0603550403', 'hex');
const DER_NULL = Buffer.from('0500', 'hex');

function selfSignedCertificate(
  commonName: string,
  publicKey: KeyObject,
  privateKey: KeyObject,
): string {
  const algorithm = der(0x30, SHA256_WITH_RSA_OID, DER_NULL);
  const name = der(
    0x30,
    der(0x31, der(0x30, COMMON_NAME_OID, der(0x0c, Buffer.from(commonName, 'utf8')))),
  );
  // A positive serial number of 16 bytes, first byte not zero.
  const serial = randomBytes(16);
  serial.writeUInt8((serial.readUInt8(0) & 0x7f) | 0x40, 0);
  const now = Date.now();
  const toBeSigned = der(
    0x30,
    der(0xa0, der(0x02, Buffer.from([2]))), // version 3
    der(0x02, serial),
    algorithm,
    name,
    der(0x30, derTime(new Date(now - DAY_MS)), derTime(new Date(now + 10 * 365 * DAY_MS))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', toBeSigned, privateKey);
  const certificate = der(0x30, toBeSigned, algorithm, der(0x03, Buffer.from([0]), signature));
  const lines = certificate.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** A DER value: tag, length, contents. */
function der(tag: number, ...contents: Uint8Array[]): Buffer {
  const body = Buffer.concat(contents);
  let length: Buffer;
  if (body.length < 0x80) {
    length = Buffer.from([body.length]);
  } else {
    const bytes: number[] = [];
    for (let rest = body.length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
    length = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

/** UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
function derTime(date: Date): Buffer {
  const digits = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050
    ? der(0x17, Buffer.from(`${digits.slice(2)}Z`, 'ascii'))
    : der(0x18, Buffer.from(`${digits}Z`, 'ascii'));
}
