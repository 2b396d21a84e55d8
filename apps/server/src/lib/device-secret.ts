import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { PAIR_CODE_ALPHABET, PAIR_CODE_LENGTH } from '@floorhand/contract/site-admin';

// The secret a workstation holds (docs/admin.md, Workstations): 32 random bytes the device keeps in
// its machine settings and sends at login with its id. The server keeps only its SHA-256: the secret
// is random and long, so a slow password hash would add nothing.

export const newDeviceSecret = (): string => randomBytes(32).toString('base64url');

export const hashDeviceSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Whether `secret` is the one whose hash is stored; false without either. Constant time. */
export function deviceSecretMatches(secret: string | undefined, storedHash: string | null | undefined): boolean {
  if (!secret || !storedHash) return false;
  const given = Buffer.from(hashDeviceSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** A one-time pairing code from PAIR_CODE_ALPHABET (uniform, crypto random). */
export const newPairCode = (): string =>
  Array.from({ length: PAIR_CODE_LENGTH }, () => PAIR_CODE_ALPHABET[randomInt(PAIR_CODE_ALPHABET.length)]).join('');
