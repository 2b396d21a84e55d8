import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// beep.ts keeps one audio context per page, so each test loads a fresh copy of the module.
const load = () => import('./beep.ts');

class FakeAudioContext {
  static instances: FakeAudioContext[] = [];
  state = 'suspended';
  currentTime = 5;
  destination = {};
  resume = vi.fn(() => Promise.resolve());
  oscillators: Array<{ type: string; frequency: { value: number }; start: ReturnType<typeof vi.fn>; stop: ReturnType<typeof vi.fn> }> = [];
  constructor() {
    FakeAudioContext.instances.push(this);
  }
  createOscillator() {
    const oscillator = { type: '', frequency: { value: 0 }, start: vi.fn(), stop: vi.fn(), connect: (node: unknown) => node };
    this.oscillators.push(oscillator);
    return oscillator;
  }
  createGain() {
    return { gain: { setValueAtTime: vi.fn(), exponentialRampToValueAtTime: vi.fn() }, connect: (node: unknown) => node };
  }
}

describe('beep, buzz and vibrate', () => {
  beforeEach(() => {
    vi.resetModules();
    FakeAudioContext.instances = [];
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('are silent no-ops without WebAudio and the Vibration API (jsdom)', async () => {
    const { playBeep, playErrorBuzz, vibrate } = await load();
    expect('AudioContext' in globalThis).toBe(false);
    expect(playBeep()).toBe(false);
    expect(playErrorBuzz()).toBe(false);
    expect(vibrate()).toBe(false);
  });

  it('schedules a short high beep and a long low buzz on one reused, resumed context', async () => {
    vi.stubGlobal('AudioContext', FakeAudioContext);
    const { playBeep, playErrorBuzz, BEEP_TONE, ERROR_BUZZ_TONE } = await load();
    expect(playBeep()).toBe(true);
    expect(playErrorBuzz()).toBe(true);
    expect(FakeAudioContext.instances).toHaveLength(1);
    const ctx = FakeAudioContext.instances[0]!;
    expect(ctx.resume).toHaveBeenCalled();
    const [beep, buzz] = ctx.oscillators;
    expect(beep!.frequency.value).toBe(BEEP_TONE.frequency);
    expect(beep!.stop).toHaveBeenCalledWith(5 + BEEP_TONE.ms / 1000);
    expect(buzz!.frequency.value).toBeLessThan(beep!.frequency.value);
    expect(ERROR_BUZZ_TONE.ms).toBeGreaterThan(BEEP_TONE.ms);
  });

  it('survives an audio context that cannot be created', async () => {
    vi.stubGlobal(
      'AudioContext',
      class {
        constructor() {
          throw new Error('too many contexts');
        }
      },
    );
    const { playBeep } = await load();
    expect(playBeep()).toBe(false);
  });

  it('vibrates for 350 ms by default', async () => {
    const vibrateSpy = vi.fn(() => true);
    vi.stubGlobal('navigator', { ...navigator, vibrate: vibrateSpy });
    const { vibrate } = await load();
    expect(vibrate()).toBe(true);
    expect(vibrateSpy).toHaveBeenCalledWith(350);
  });
});
