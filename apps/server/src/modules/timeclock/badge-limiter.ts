// Guessing badges at shared devices (the time clock, the kiosk) is limited on the limit store of the
// login limiter (lib/limit-store.ts: Redis when REDIS_URL is set, so every node sees the same counts),
// in windows of PIN_LOCK_MINUTES:
// - per device (the workstation of the token, on its site): badges not recognised when scanned
//   (BADGE_MAX_UNKNOWN_PER_DEVICE), and failed badge + PIN entries (BADGE_MAX_WRONG_PINS_PER_DEVICE;
//   an unknown typed badge and a wrong PIN look the same, so they count the same). A device at its
//   limit is refused every badge, known or not; other devices are not affected.
// - per organisation: every failure at any of its devices (BADGE_MAX_UNKNOWN_PER_ORG, higher). Past it,
//   every device that has had a failure in its own window is refused every badge; devices without
//   one keep working (a wall clock nobody guesses at still punches the morning shift).
// Success never gives tries back (a guesser holding one real badge cannot reset the counts). The
// moment a limit trips is written to the audit log once (the store's count reaches the limit on
// exactly one request, on any node).
import { PIN_LOCK_MINUTES } from '@floorhand/contract/timeclock';
import type { Config } from '../../config.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { writeAuditLog } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { rateLimited } from '../../lib/errors.ts';
import type { LimitState } from '../../lib/limit-store.ts';

export interface BadgeLimits {
  unknownPerDevice: number;
  wrongPinsPerDevice: number;
  unknownPerOrg: number;
  windowMs: number;
}

export const badgeLimitsOf = (
  config: Pick<Config, 'BADGE_MAX_UNKNOWN_PER_DEVICE' | 'BADGE_MAX_WRONG_PINS_PER_DEVICE' | 'BADGE_MAX_UNKNOWN_PER_ORG'>,
): BadgeLimits => ({
  unknownPerDevice: config.BADGE_MAX_UNKNOWN_PER_DEVICE,
  wrongPinsPerDevice: config.BADGE_MAX_WRONG_PINS_PER_DEVICE,
  unknownPerOrg: config.BADGE_MAX_UNKNOWN_PER_ORG,
  windowMs: PIN_LOCK_MINUTES * 60_000,
});

/** The kind of failure: a badge scanned without a PIN, or a badge with a PIN (typed, or a PIN sent). */
export type BadgeAttempt = 'scan' | 'pin';

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));
const wait = (s: LimitState) => (s.count > 0 ? s.resetInMs : 0);

/** The audit log's name of each limit, and the words for its trip. */
const LIMIT = {
  device: { action: 'badge/limit/device', entity: 'workstation' },
  devicePins: { action: 'badge/limit/devicePins', entity: 'workstation' },
  org: { action: 'badge/limit/organisation', entity: 'organisation' },
} as const;

export interface BadgeLimiter {
  /** Throws ERR_RATE_LIMITED (429) when this device may not identify a badge now. */
  check(attempt: BadgeAttempt): Promise<void>;
  /** Counts a badge that was not recognised (or a wrong PIN) at this device. */
  recordFailure(attempt: BadgeAttempt): Promise<void>;
}

/** The limiter of the caller's device: the workstation of the token, on the token's site. */
export function badgeLimiter(deps: Deps, auth: AuthContext): BadgeLimiter {
  const limits = badgeLimitsOf(deps.config);
  const device = `${auth.orgId}:${auth.siteId}:${auth.claims.ws.id}`;
  const keys = {
    device: `badge-device:${device}`,
    devicePins: `badge-device-pin:${device}`,
    org: `badge-org:${auth.orgId}`,
  };
  const store = deps.limitStore;
  const tripped = async (which: keyof typeof LIMIT, max: number) => {
    const l = LIMIT[which];
    await writeAuditLog(deps.db, {
      orgId: auth.orgId,
      siteId: auth.siteId,
      accountId: auth.accountId,
      action: l.action,
      entity: l.entity,
      entityId: which === 'org' ? auth.orgId : auth.claims.ws.id,
      before: null,
      after: { limit: max, windowMinutes: minutes(limits.windowMs), device: auth.claims.ws.id },
    });
  };
  const hit = async (which: keyof typeof LIMIT, max: number) => {
    const s = await store.hit(keys[which], limits.windowMs, max);
    if (s.count === max) await tripped(which, max);
  };
  return {
    async check(attempt) {
      const [dev, pins, org] = await Promise.all([store.get(keys.device), store.get(keys.devicePins), store.get(keys.org)]);
      if (dev.count >= limits.unknownPerDevice) {
        throw rateLimited(`Too many unknown badges on this device. Ask a supervisor, or try again in ${minutes(dev.resetInMs)} minutes.`);
      }
      if (attempt === 'pin' && pins.count >= limits.wrongPinsPerDevice) {
        throw rateLimited(
          `Too many wrong badges or PINs typed on this device. Scan your badge, ask a supervisor, or try again in ${minutes(pins.resetInMs)} minutes.`,
        );
      }
      const deviceWait = Math.max(wait(dev), wait(pins));
      if (org.count >= limits.unknownPerOrg && deviceWait > 0) {
        throw rateLimited(
          `Too many unknown badges in this organisation. This device is paused: ask a supervisor, or try again in ${minutes(Math.min(org.resetInMs, deviceWait))} minutes.`,
        );
      }
    },
    async recordFailure(attempt) {
      await Promise.all([
        attempt === 'scan' ? hit('device', limits.unknownPerDevice) : hit('devicePins', limits.wrongPinsPerDevice),
        hit('org', limits.unknownPerOrg),
      ]);
    },
  };
}
