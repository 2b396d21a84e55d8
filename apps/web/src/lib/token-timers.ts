import {
  ACTIVITY_REFRESH_THROTTLE_FRACTION,
  ACTIVITY_REFRESH_THROTTLE_MAX_MS,
  SESSION_KILL_LEAD_MS,
  TOKEN_REFRESH_LEAD_FRACTION,
  TOKEN_REFRESH_LEAD_MIN_MS,
} from '@floorhand/contract/constants';

// Token timer arithmetic of spec sections 4 and 9, as plain functions of their inputs.

/** With stayLoggedIn, refresh at expiry minus the larger of 10% of lifetime or 5500 ms. */
export const refreshLeadMs = (lifetimeMs: number): number => Math.max(lifetimeMs * TOKEN_REFRESH_LEAD_FRACTION, TOKEN_REFRESH_LEAD_MIN_MS);

/** Without it, activity refreshes at most once per the smaller of 10% of lifetime or 60 s. */
export const activityThrottleMs = (lifetimeMs: number): number =>
  Math.min(lifetimeMs * ACTIVITY_REFRESH_THROTTLE_FRACTION, ACTIVITY_REFRESH_THROTTLE_MAX_MS);

export interface TokenTimes {
  /** Seconds since the epoch, as in the token. */
  iat: number;
  exp: number;
}

export interface TimerPlan {
  /** Delay until the scheduled refresh (stayLoggedIn only). */
  refreshInMs?: number;
  /** Delay until the session is killed: 500 ms before expiry. */
  killInMs: number;
  /** Minimum gap between activity-driven refreshes (without stayLoggedIn). */
  activityThrottleMs?: number;
}

export function planTimers(token: TokenTimes, stayLoggedIn: boolean, nowMs: number): TimerPlan {
  const expMs = token.exp * 1000;
  const lifetimeMs = (token.exp - token.iat) * 1000;
  const killInMs = Math.max(0, expMs - SESSION_KILL_LEAD_MS - nowMs);
  if (stayLoggedIn) return { refreshInMs: Math.max(0, expMs - refreshLeadMs(lifetimeMs) - nowMs), killInMs };
  return { killInMs, activityThrottleMs: activityThrottleMs(lifetimeMs) };
}

/** Whether an activity at `nowMs` should refresh, given the last refresh time. */
export const activityShouldRefresh = (lastRefreshMs: number, nowMs: number, throttleMs: number): boolean =>
  nowMs - lastRefreshMs >= throttleMs;

export const ACTIVITY_EVENTS = ['load', 'keydown', 'mousemove', 'mousedown', 'click', 'scroll', 'touchstart'] as const;

interface TimerCallbacks {
  refresh(): Promise<void>;
  kill(): void;
}

/** Runs the plan for the current token; `arm` again after every new token. */
export function createTokenTimers(cb: TimerCallbacks, clock: { now(): number } = Date) {
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  let throttle: number | undefined;
  let lastRefresh = 0;
  let refreshing = false;

  const doRefresh = async () => {
    if (refreshing) return;
    refreshing = true;
    lastRefresh = clock.now();
    try {
      await cb.refresh();
    } finally {
      refreshing = false;
    }
  };
  const onActivity = () => {
    if (throttle !== undefined && activityShouldRefresh(lastRefresh, clock.now(), throttle)) void doRefresh();
  };
  const listen = (on: boolean) => {
    if (typeof window === 'undefined') return;
    for (const ev of ACTIVITY_EVENTS) {
      if (on) window.addEventListener(ev, onActivity, { passive: true, capture: true });
      else window.removeEventListener(ev, onActivity, { capture: true });
    }
  };

  function disarm(): void {
    clearTimeout(refreshTimer);
    clearTimeout(killTimer);
    refreshTimer = killTimer = undefined;
    throttle = undefined;
    listen(false);
  }

  function arm(token: TokenTimes, stayLoggedIn: boolean): void {
    disarm();
    const now = clock.now();
    const plan = planTimers(token, stayLoggedIn, now);
    lastRefresh = now;
    killTimer = setTimeout(cb.kill, plan.killInMs);
    if (plan.refreshInMs !== undefined) refreshTimer = setTimeout(() => void doRefresh(), plan.refreshInMs);
    if (plan.activityThrottleMs !== undefined) {
      throttle = plan.activityThrottleMs;
      listen(true);
    }
  }

  return { arm, disarm, onActivity };
}
