import { z } from 'zod';
import { callBase, scanCode, withErr } from './common.ts';
import { KIOSK_SESSION_TIMEOUT_DEFAULT_MINUTES } from './constants.ts';
import { badgeEntry, pinSchema } from './timeclock.ts';

// The kiosk (docs/kiosk.md): a kiosk account on an authorised device hands its session to the worker
// whose badge it reads. The server answers a human token in the x-human-token header; every call that
// carries it (beside the kiosk's own token) is that person's, and so is every audit stamp it writes.

/** The longest inactivity a kiosk session may be given, in minutes. */
export const KIOSK_TIMEOUT_MAX_MINUTES = 240;

export const kioskCalls = {
  'kiosk/start': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({
      badge: scanCode,
      entry: badgeEntry.default('scan'),
      pin: pinSchema.optional(),
      /** The device's kioskSessionTimeout (machine settings). */
      timeoutMinutes: z.number().int().min(1).max(KIOSK_TIMEOUT_MAX_MINUTES).default(KIOSK_SESSION_TIMEOUT_DEFAULT_MINUTES),
    }),
    response: withErr({
      user: z.object({ id: z.string(), userName: z.string(), firstName: z.string(), surnames: z.string() }).optional(),
      perms: z
        .object({ roles: z.array(z.string()), kioskAcct: z.boolean(), timeclockAcct: z.boolean(), serviceAcct: z.boolean() })
        .optional(),
      timeoutMinutes: z.number().optional(),
    }),
  },
  /**
   * Who holds the kiosk, asked with the human token after a reload of the page: the worker's user and
   * rights while the session lasts (refused with ERR_KIOSK_SESSION_ENDED once it has ended or timed out; 404 without a human token).
   */
  'kiosk/current': {
    locId: undefined,
    auth: 'required',
    body: callBase,
    response: withErr({
      user: z.object({ id: z.string(), userName: z.string(), firstName: z.string(), surnames: z.string() }).optional(),
      perms: z
        .object({ roles: z.array(z.string()), kioskAcct: z.boolean(), timeclockAcct: z.boolean(), serviceAcct: z.boolean() })
        .optional(),
    }),
  },
  /** Done: the human token is revoked; the kiosk account's own session goes on. */
  'kiosk/end': {
    locId: undefined,
    auth: 'required',
    body: callBase,
    response: withErr({}),
  },
} as const;

/** Every badge code Floorhand makes starts so (random ones and the demo's); a kiosk tells a badge by it. */
export const BADGE_CODE_PREFIX = 'B-';

/**
 * Whether a scan on a kiosk, during a worker's session, is taken for a badge (which switches the
 * worker) rather than for the screen: the prefix and then one run of letters and digits with no
 * further dash (B-7KQ2M9XW3P, B-ADMIN), so a location such as B-01-1 stays a location. A code that
 * looks so and is no badge goes to the screen after all (docs/scanning.md).
 */
export function looksLikeBadge(code: string): boolean {
  return /^B-[0-9A-Za-z]{2,40}$/.test(code);
}
