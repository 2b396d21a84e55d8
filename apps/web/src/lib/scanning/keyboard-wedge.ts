import { WEDGE_KEY_GAP_MS } from '@floorhand/contract/constants';
import { UNKNOWN_FORMAT, type Scan } from './scan-bus.ts';

/**
 * Shortest code accepted from a keyboard wedge. The shortest symbols in use (EAN-8, short
 * location labels) are longer; two fast keystrokes plus Enter from a person are not a scan.
 */
export const WEDGE_MIN_LENGTH = 3;

/**
 * Quiet time before the first key of a scan. Keys that follow a broken-off burst sooner than this are
 * the rest of that burst (a scan whose first keys came too slowly: a device waking up, a busy
 * page), so they are never published on their own: a wrong lookup is worse than none.
 */
export const WEDGE_QUIET_MS = 1000;

export type WedgeKeyEvent = {
  key: string;
  timeStamp: number;
  targetIsInput: boolean;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
  repeat?: boolean;
  isComposing?: boolean;
};

export type WedgeJoinerOptions = { gapMs?: number; minLength?: number; quietMs?: number };
export type WedgeJoiner = {
  /** Returns the completed code when this key is the Enter or Tab that ends a scan. */
  feed: (event: WedgeKeyEvent) => string | null;
  reset: () => void;
};

const isTerminator = (key: string) => key === 'Enter' || key === 'Tab';
// Named keys ('Shift', 'ArrowLeft', 'Dead') are longer than one character; a scanner sends Shift
// between the characters of upper-case codes, so these must not break the timing.
const isPrintable = (key: string) => [...key].length === 1;
// Ctrl+Alt together is AltGr, which scanners emulating some layouts send for '@', '#' or '\'.
const isShortcut = (e: WedgeKeyEvent) => Boolean(e.metaKey) || Boolean(e.ctrlKey) !== Boolean(e.altKey);

/**
 * Joins keystrokes that arrive at most gapMs apart into one code. A gap longer than that starts a
 * new buffer and discards the old one: it was a person typing, or a code without the Enter or Tab
 * the spec requires, and neither is a scan. The terminator obeys the same gap, so a slow Enter
 * after a fast burst is not a scan either. A buffer that a gap started less than quietMs after
 * the discarded keys is the tail of a broken scan (`A-01-3` arriving as `A-0`, a pause, `1-3`), and
 * the tail alone would look up the wrong thing: it is discarded at its terminator too.
 */
export function createWedgeJoiner({ gapMs = WEDGE_KEY_GAP_MS, minLength = WEDGE_MIN_LENGTH, quietMs = WEDGE_QUIET_MS }: WedgeJoinerOptions = {}): WedgeJoiner {
  let buffer = '';
  let last = Number.NEGATIVE_INFINITY;
  /** Whether the buffer began right after keys that were cut off, so it is not a whole scan. */
  let tail = false;
  const reset = () => {
    buffer = '';
    last = Number.NEGATIVE_INFINITY;
    tail = false;
  };

  const feed = (event: WedgeKeyEvent): string | null => {
    // A focused input is a scan input or a form field; it handles its own entry.
    if (event.targetIsInput || event.repeat || event.isComposing) {
      reset();
      return null;
    }
    const terminator = isTerminator(event.key);
    if (isShortcut(event) || (!terminator && !isPrintable(event.key))) return null;

    const gap = event.timeStamp - last;
    if (gap > gapMs) {
      // Keys cut off without their terminator make whatever follows soon after a tail.
      tail = buffer !== '' ? gap < quietMs : tail && gap < quietMs;
      buffer = '';
    }
    last = event.timeStamp;
    if (!terminator) {
      buffer += event.key;
      return null;
    }
    const code = buffer;
    const whole = !tail;
    buffer = '';
    tail = false;
    return whole && code.length >= minLength ? code : null;
  };

  return { feed, reset };
}

const NON_TEXT_INPUT_TYPES = new Set(['button', 'checkbox', 'color', 'file', 'hidden', 'image', 'radio', 'range', 'reset', 'submit']);

/** Whether keys typed at this target are text entry (so not the wedge's business). */
export function isTextEntryTarget(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element || typeof element.tagName !== 'string') return false;
  if (element.isContentEditable || element.closest('[contenteditable=""], [contenteditable="true"]')) return true;
  if (element.tagName === 'TEXTAREA' || element.tagName === 'SELECT') return true;
  return element.tagName === 'INPUT' && !NON_TEXT_INPUT_TYPES.has((element as HTMLInputElement).type);
}

/**
 * Listens for keyboard-wedge scans anywhere on the page and publishes them with source 'wedge'.
 * Listens in the capture phase so no screen handler sees the terminator of a scan first, and
 * swallows only a terminator that completed a scan (Enter would otherwise click the focused
 * button or submit a dialog, Tab would move focus).
 */
export function attachKeyboardWedge(target: Window | Document, publish: (scan: Scan) => void, options?: WedgeJoinerOptions): () => void {
  const joiner = createWedgeJoiner(options);
  const onKeyDown = (event: Event) => {
    const key = event as KeyboardEvent;
    // Chrome's autofill dispatches keydown events without a key.
    if (typeof key.key !== 'string') return;
    const text = joiner.feed({
      key: key.key,
      timeStamp: key.timeStamp,
      targetIsInput: isTextEntryTarget(key.target),
      ctrlKey: key.ctrlKey,
      altKey: key.altKey,
      metaKey: key.metaKey,
      repeat: key.repeat,
      isComposing: key.isComposing,
    });
    if (text === null) return;
    key.preventDefault();
    key.stopPropagation();
    publish({ text, format: UNKNOWN_FORMAT, source: 'wedge' });
  };
  target.addEventListener('keydown', onKeyDown, { capture: true });
  return () => target.removeEventListener('keydown', onKeyDown, { capture: true });
}
