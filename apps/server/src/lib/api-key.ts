import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PATTERN } from '@floorhand/contract/accounts';

// Service-account API keys: `fhk_<prefix>_<secret>`. The secret is 32 random bytes, so a plain SHA-256
// is enough to store (a slow password hash buys nothing against 256 bits and would slow every call).
// The prefix is public and indexed: it finds the account without scanning hashes.

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function newApiKey(): { key: string; prefix: string; hash: string } {
  const prefix = randomBytes(4).toString('hex');
  const key = `fhk_${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, hash: hashApiKey(key) };
}

/** The key's prefix when it has the key's form. */
export const apiKeyPrefix = (key: string): string | undefined => API_KEY_PATTERN.exec(key)?.[1];

/** Compares in constant time, so response times tell nothing about the stored hash. */
export function apiKeyMatches(key: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const a = Buffer.from(hashApiKey(key), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
