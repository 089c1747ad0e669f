/**
 * What a store writes of a secret (a task id, a promise token, an access token) goes through a
 * `Secrets` pair, so that nothing in Redis reads in clear unless the application says it may.
 * `aesGcmSecrets(key)` is a ready pair on Node's own AES-256-GCM.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type JsonObject, StoreUnavailableError } from '@toolwire/client';

/** Turns a secret into what is stored, and back. Either may be async (a KMS, say). */
export interface Secrets {
  encrypt(plain: string): string | Promise<string>;
  decrypt(sealed: string): string | Promise<string>;
}

/** `'plaintext'`: the application accepts secrets in clear in Redis (a private, trusted instance). */
export type SecretsOption = Secrets | 'plaintext';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a random IV per value, stored as `v1.<iv>.<ciphertext><tag>` (base64url). The
 * key is 32 bytes: a Buffer, or a string of 64 hex digits or 43-44 base64 characters.
 */
export function aesGcmSecrets(key: string | Uint8Array): Secrets {
  const bytes = keyBytes(key);
  return {
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', bytes, iv);
      const sealed = Buffer.concat([
        cipher.update(plain, 'utf8'),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return `${VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
    },
    decrypt(value) {
      const [version, iv, sealed] = value.split('.');
      if (version !== VERSION || !iv || !sealed) throw new Error('not a value this key sealed');
      const bytes_ = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', bytes, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(bytes_.subarray(bytes_.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes_.subarray(0, bytes_.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

/** JSON sealed by `seal`. */
export async function seal(secrets: Secrets, value: unknown): Promise<string> {
  return secrets.encrypt(JSON.stringify(value));
}

/**
 * A stored value read back. One that cannot be (sealed with another key, say, or not JSON) is a
 * StoreUnavailableError naming the operation, never a crypto or syntax error.
 */
export async function unseal(
  secrets: Secrets,
  operation: string,
  value: string,
): Promise<JsonObject> {
  try {
    return JSON.parse(await secrets.decrypt(value)) as JsonObject;
  } catch (error) {
    throw new StoreUnavailableError(
      operation,
      'a stored value could not be read (sealed with another key?)',
      {
        cause: error,
      },
    );
  }
}

/** The pair to use: the application's, or one that stores values as they are. */
export function secretsFrom(option: SecretsOption | undefined): Secrets {
  if (option === 'plaintext') return { encrypt: (plain) => plain, decrypt: (sealed) => sealed };
  const pair = option as Partial<Secrets> | undefined;
  if (typeof pair?.encrypt !== 'function' || typeof pair.decrypt !== 'function') {
    throw new TypeError(
      "expected `secrets` to be an { encrypt, decrypt } pair (aesGcmSecrets(key) makes one) or 'plaintext'",
    );
  }
  return pair as Secrets;
}

function keyBytes(key: string | Uint8Array): Buffer {
  const bytes =
    typeof key !== 'string'
      ? Buffer.from(key)
      : /^[0-9a-f]{64}$/i.test(key)
        ? Buffer.from(key, 'hex')
        : Buffer.from(key, 'base64');
  if (bytes.length !== 32) {
    throw new TypeError('expected a 32-byte key: 64 hex digits, base64, or bytes');
  }
  return bytes;
}
