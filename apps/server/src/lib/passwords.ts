import { hash, verify } from '@node-rs/argon2';

// Password checks shared by logging in (modules/auth) and changing one's own password (account/me/changePassword).

/**
 * A hash to check a password against when there is no account (or it has no password): an unknown
 * name then costs the same argon2 work as a known one, so timing does not tell which names exist.
 */
let decoyHash: Promise<string> | undefined;
export const decoy = (): Promise<string> => (decoyHash ??= hash('floorhand-decoy-password'));

/** Checks a password against an account's hash, or against the decoy when there is none. */
export async function passwordMatches(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await decoy(), password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
