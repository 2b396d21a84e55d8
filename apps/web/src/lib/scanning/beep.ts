import { BARCODE_DEFAULTS } from '@floorhand/contract/constants';

type Tone = { frequency: number; ms: number; wave: OscillatorType; volume: number };
/** A short high tone, like a hand scanner's good-read beep. */
export const BEEP_TONE: Tone = { frequency: 1800, ms: 120, wave: 'sine', volume: 0.3 };
/** A low, rough, longer tone that cannot be mistaken for the good-read beep. */
export const ERROR_BUZZ_TONE: Tone = { frequency: 140, ms: 450, wave: 'sawtooth', volume: 0.25 };

type AudioContextConstructor = new () => AudioContext;
// Browsers cap the number of audio contexts, so one is made lazily and reused.
let context: AudioContext | undefined;

function audioContext(): AudioContext | undefined {
  const Ctor =
    (globalThis as { AudioContext?: AudioContextConstructor; webkitAudioContext?: AudioContextConstructor }).AudioContext ??
    (globalThis as { webkitAudioContext?: AudioContextConstructor }).webkitAudioContext;
  if (!Ctor) return undefined;
  context ??= new Ctor();
  // Autoplay policy may start it suspended; a failed resume just means a silent beep.
  if (context.state === 'suspended') context.resume().catch(() => {});
  return context;
}

function play({ frequency, ms, wave, volume }: Tone): boolean {
  try {
    const ctx = audioContext();
    if (!ctx) return false;
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    const start = ctx.currentTime;
    const end = start + ms / 1000;
    oscillator.type = wave;
    oscillator.frequency.value = frequency;
    // Ramp down instead of cutting off, which clicks.
    gain.gain.setValueAtTime(volume, start);
    gain.gain.exponentialRampToValueAtTime(0.0001, end);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(start);
    oscillator.stop(end);
    return true;
  } catch {
    return false;
  }
}

/** Good-read beep. Returns whether a sound was scheduled; a no-op without WebAudio. */
export const playBeep = (): boolean => play(BEEP_TONE);
/** Error buzz, played when the scanner overlay times out. */
export const playErrorBuzz = (): boolean => play(ERROR_BUZZ_TONE);

/** Vibrates the handheld; a no-op where the Vibration API is missing (desktop, iOS, jsdom). */
export function vibrate(ms: number = BARCODE_DEFAULTS.vibrateMs): boolean {
  const navigator = globalThis.navigator as Navigator | undefined;
  if (typeof navigator?.vibrate !== 'function') return false;
  try {
    return navigator.vibrate(ms);
  } catch {
    return false;
  }
}
