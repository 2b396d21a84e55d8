import { randomInt } from 'node:crypto';
import { BADGE_CODE_PREFIX } from '@floorhand/contract/kiosk';

// The badge code a new account gets when the admin gives none: random, so a badge cannot be guessed
// from a name (the demo's B-<NAME> codes are for the demo only). 10 characters of 31 that are never
// confused when read off a label or typed (no 0/O, 1/I/L): about 49 bits, read as Code 128 by any
// scanner. Guessing is limited at the devices as well (timeclock/badge-limiter.ts).

export const BADGE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const BADGE_RANDOM_LENGTH = 10;

/** 'B-' and BADGE_RANDOM_LENGTH characters of BADGE_ALPHABET from the system's secure random source. */
export function newBadgeCode(): string {
  let code = BADGE_CODE_PREFIX;
  for (let i = 0; i < BADGE_RANDOM_LENGTH; i++) code += BADGE_ALPHABET[randomInt(BADGE_ALPHABET.length)];
  return code;
}
