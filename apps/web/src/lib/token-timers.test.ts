import { afterEach, describe, expect, it, vi } from 'vitest';
import { activityShouldRefresh, activityThrottleMs, createTokenTimers, planTimers, refreshLeadMs } from './token-timers.ts';

describe('token timer arithmetic', () => {
  it('refresh lead is max(10% of lifetime, 5500 ms)', () => {
    expect(refreshLeadMs(3_600_000)).toBe(360_000);
    expect(refreshLeadMs(55_000)).toBe(5500);
    expect(refreshLeadMs(30_000)).toBe(5500);
    expect(refreshLeadMs(56_000)).toBe(5600);
  });
  it('activity throttle is min(10% of lifetime, 60000 ms)', () => {
    expect(activityThrottleMs(3_600_000)).toBe(60_000);
    expect(activityThrottleMs(600_000)).toBe(60_000);
    expect(activityThrottleMs(300_000)).toBe(30_000);
    expect(activityThrottleMs(8000)).toBe(800);
  });
  it('with stayLoggedIn: refresh at expiry minus the lead, kill 500 ms before expiry', () => {
    const now = 1_000_000_000_000;
    const token = { iat: now / 1000, exp: now / 1000 + 3600 };
    expect(planTimers(token, true, now)).toEqual({ refreshInMs: 3_600_000 - 360_000, killInMs: 3_599_500 });
  });
  it('without it: no scheduled refresh, an activity throttle, the same kill', () => {
    const now = 1_000_000_000_000;
    const token = { iat: now / 1000, exp: now / 1000 + 3600 };
    expect(planTimers(token, false, now)).toEqual({ killInMs: 3_599_500, activityThrottleMs: 60_000 });
  });
  it('never plans a negative delay for an almost expired token', () => {
    const now = 1_000_000_000_000;
    expect(planTimers({ iat: now / 1000 - 100, exp: now / 1000 }, true, now)).toEqual({ refreshInMs: 0, killInMs: 0 });
  });
  it('activity refreshes once the throttle has passed', () => {
    expect(activityShouldRefresh(0, 59_999, 60_000)).toBe(false);
    expect(activityShouldRefresh(0, 60_000, 60_000)).toBe(true);
  });
});

describe('token timers', () => {
  afterEach(() => vi.useRealTimers());

  it('kills the session 500 ms before expiry', () => {
    vi.useFakeTimers({ now: 1_000_000_000_000 });
    const kill = vi.fn();
    const timers = createTokenTimers({ refresh: vi.fn(async () => {}), kill });
    timers.arm({ iat: 1_000_000_000, exp: 1_000_000_010 }, false);
    vi.advanceTimersByTime(9499);
    expect(kill).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(kill).toHaveBeenCalledOnce();
    timers.disarm();
  });

  it('refreshes on a schedule with stayLoggedIn', () => {
    vi.useFakeTimers({ now: 1_000_000_000_000 });
    const refresh = vi.fn(async () => {});
    const timers = createTokenTimers({ refresh, kill: vi.fn() });
    timers.arm({ iat: 1_000_000_000, exp: 1_000_000_100 }, true);
    vi.advanceTimersByTime(100_000 - 10_000 - 1);
    expect(refresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledOnce();
    timers.disarm();
  });

  it('refreshes on activity, throttled, without stayLoggedIn', () => {
    vi.useFakeTimers({ now: 1_000_000_000_000 });
    const refresh = vi.fn(async () => {});
    const timers = createTokenTimers({ refresh, kill: vi.fn() });
    timers.arm({ iat: 1_000_000_000, exp: 1_000_000_100 }, false);
    window.dispatchEvent(new Event('keydown'));
    expect(refresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10_000);
    window.dispatchEvent(new Event('click'));
    expect(refresh).toHaveBeenCalledOnce();
    window.dispatchEvent(new Event('click'));
    expect(refresh).toHaveBeenCalledOnce();
    timers.disarm();
    vi.advanceTimersByTime(20_000);
    window.dispatchEvent(new Event('click'));
    expect(refresh).toHaveBeenCalledOnce();
  });
});
