import { describe, expect, it } from 'vitest';
import { MIN_SCAN_BOX_PX } from '@floorhand/contract/constants';
import { scanBoxSize, transition, type OverlayContext, type OverlayEvent, type OverlayState } from './overlay-machine.ts';

const single: OverlayContext = { continuous: false, beep: true, vibrate: true };
const continuous: OverlayContext = { ...single, continuous: true };
const quiet: OverlayContext = { continuous: false, beep: false, vibrate: false };

function run(events: OverlayEvent['type'][], ctx: OverlayContext, from: OverlayState = 'closed') {
  return events.reduce(({ state }, type) => transition(state, { type } as OverlayEvent, ctx), { state: from, effects: [] as string[] });
}

describe('scanner overlay', () => {
  it('opens, starts the camera and the timeout, then scans once the camera runs', () => {
    expect(transition('closed', { type: 'open' }, single)).toEqual({ state: 'open', effects: ['startCamera', 'startTimer'] });
    expect(transition('open', { type: 'started' }, single)).toEqual({ state: 'scanning', effects: [] });
  });

  it('closes on a read in single mode, with beep and vibration', () => {
    expect(run(['open', 'started', 'read'], single)).toEqual({
      state: 'closed',
      effects: ['publish', 'beep', 'vibrate', 'stopCamera', 'clearTimer'],
    });
  });

  it('honours beep and vibrate off', () => {
    expect(run(['open', 'started', 'read'], quiet).effects).toEqual(['publish', 'stopCamera', 'clearTimer']);
  });

  it('stays scanning after a read in continuous mode and restarts the timeout', () => {
    const after = run(['open', 'started', 'read', 'read'], continuous);
    expect(after).toEqual({ state: 'scanning', effects: ['publish', 'beep', 'vibrate', 'startTimer'] });
  });

  it('closes on a click, in both modes', () => {
    for (const ctx of [single, continuous]) {
      expect(run(['open', 'started', 'click'], ctx)).toEqual({ state: 'closed', effects: ['stopCamera', 'clearTimer'] });
      expect(run(['open', 'click'], ctx).state).toBe('closed');
    }
  });

  it('closes with the error buzz on a timeout, in both modes and even with beep off', () => {
    for (const ctx of [single, continuous, quiet]) {
      expect(run(['open', 'started', 'timeout'], ctx)).toEqual({ state: 'closed', effects: ['buzz', 'stopCamera', 'clearTimer'] });
    }
    expect(run(['open', 'timeout'], single).effects).toContain('buzz');
  });

  it('closes when the app closes it', () => {
    expect(run(['open', 'started', 'close'], continuous)).toEqual({ state: 'closed', effects: ['stopCamera', 'clearTimer'] });
  });

  it('accepts a read before the started event', () => {
    expect(run(['open', 'read'], single).effects).toContain('publish');
  });

  it('ignores events that do not apply', () => {
    for (const type of ['read', 'click', 'timeout', 'close'] as const) {
      expect(transition('closed', { type }, single)).toEqual({ state: 'closed', effects: [] });
    }
    expect(transition('scanning', { type: 'open' }, single)).toEqual({ state: 'scanning', effects: [] });
    expect(transition('open', { type: 'open' }, single)).toEqual({ state: 'open', effects: [] });
  });

  it('stops a camera that came up after the overlay closed', () => {
    expect(run(['open', 'click', 'started'], single)).toEqual({ state: 'closed', effects: ['stopCamera'] });
  });
});

describe('scan box', () => {
  it('is 85% of the smaller view dimension', () => {
    expect(scanBoxSize(640, 480)).toBe(408);
    expect(scanBoxSize(360, 800)).toBe(306);
  });

  it('is never smaller than the minimum', () => {
    expect(MIN_SCAN_BOX_PX).toBe(50);
    expect(scanBoxSize(40, 300)).toBe(50);
    expect(scanBoxSize(58, 58)).toBe(50);
    expect(scanBoxSize(59, 59)).toBe(50);
    expect(scanBoxSize(60, 60)).toBe(51);
  });
});
