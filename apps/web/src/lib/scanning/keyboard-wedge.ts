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

export type WedgeJoinerOptions = {
  gapMs?: number;
  minLength?: number;
  quietMs?: number;
  /**
   * A terminator ended a burst at scanner speed that was the tail of a broken one: a scan that was not
   * read. `head` is how many keys the cut-off part before it had: 1 is as likely a key typed by hand
   * just before the scan as a scanner's slow first key.
   */
  onBroken?: (head: number) => void;
  /**
   * The scanner's prefix (App Settings, "Scanner prefix"; the way Zebra DataWedge and Honeywell
   * scanners mark what they send): keys that begin with it are a scan up to the Enter or Tab however
   * slowly they come, and the prefix is not part of the code. Empty: timing alone.
   */
  prefix?: string;
};
export type KeyboardWedgeOptions = WedgeJoinerOptions & {
  /**
   * A person acted: a tap or click, or a key only a person sends (an Enter or Tab that ended no scan:
   * a quantity confirmed, a dialog answered; or Escape). The scan bus forgets its repeats then: the
   * same label scanned again after it is a new scan, not a trigger bounce.
   */
  onPerson?: () => void;
};
export type WedgeJoiner = {
  /** Returns the completed code when this key is the Enter or Tab that ends a scan. */
  feed: (event: WedgeKeyEvent) => string | null;
  /** Whether a key at this time would begin a new buffer (the first key of a possible scan). */
  startsBurst: (timeStamp: number) => boolean;
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
export function createWedgeJoiner({
  gapMs = WEDGE_KEY_GAP_MS,
  minLength = WEDGE_MIN_LENGTH,
  quietMs = WEDGE_QUIET_MS,
  onBroken,
  prefix = '',
}: WedgeJoinerOptions = {}): WedgeJoiner {
  let buffer = '';
  let last = Number.NEGATIVE_INFINITY;
  /** Whether the buffer began right after keys that were cut off, so it is not a whole scan. */
  let tail = false;
  /** The length of the cut-off buffer that made this one a tail. */
  let head = 0;
  /** Whether the buffer began with the scanner's prefix: a scan up to its terminator, whatever the timing. */
  let marked = false;
  const reset = () => {
    buffer = '';
    last = Number.NEGATIVE_INFINITY;
    tail = false;
    marked = false;
  };

  const feed = (event: WedgeKeyEvent): string | null => {
    // A focused input is a scan input or a form field; it handles its own entry.
    if (event.targetIsInput || event.repeat || event.isComposing) {
      reset();
      return null;
    }
    const terminator = isTerminator(event.key);
    if (isShortcut(event) || (!terminator && !isPrintable(event.key))) return null;

    if (marked) {
      last = event.timeStamp;
      if (!terminator) {
        buffer += event.key;
        return null;
      }
      const code = buffer;
      buffer = '';
      marked = false;
      return code.length > 0 ? code : null;
    }

    const gap = event.timeStamp - last;
    if (gap > gapMs) {
      // Keys cut off without their terminator make whatever follows soon after a tail.
      tail = buffer !== '' ? gap < quietMs : tail && gap < quietMs;
      if (buffer !== '') head = buffer.length;
      buffer = '';
    }
    last = event.timeStamp;
    if (!terminator) {
      buffer += event.key;
      // A buffer that begins with the prefix is a scan to its terminator; the prefix is not part of the code.
      if (prefix !== '' && buffer === prefix) {
        marked = true;
        tail = false;
        buffer = '';
      }
      return null;
    }
    const code = buffer;
    const whole = !tail;
    buffer = '';
    tail = false;
    if (code.length < minLength) return null;
    if (!whole) onBroken?.(head);
    return whole ? code : null;
  };

  const startsBurst = (timeStamp: number) => !marked && (buffer === '' || timeStamp - last > gapMs);

  return { feed, startsBurst, reset };
}

/** What a field held when a burst began in it, to give back when the burst turns out to be a scan. */
type FieldSnapshot = {
  element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  value: string;
  start: number | null;
  end: number | null;
};

function snapshotOf(target: EventTarget | null): FieldSnapshot | null {
  const element = target as HTMLElement | null;
  if (!element || typeof element.tagName !== 'string') return null;
  if (element.tagName !== 'INPUT' && element.tagName !== 'TEXTAREA' && element.tagName !== 'SELECT') return null;
  const field = element as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  let start: number | null = null;
  let end: number | null = null;
  try {
    if (!(field instanceof HTMLSelectElement)) ({ selectionStart: start, selectionEnd: end } = field);
  } catch {
    // Inputs of type number or email have no selection.
  }
  return { element: field, value: field.value, start, end };
}

/**
 * Gives a field back what it held: through the value setter of its element's prototype and an
 * input event, so a React-controlled field's state follows (React watches that setter).
 */
function restore(snapshot: FieldSnapshot | null): void {
  if (!snapshot || !snapshot.element.isConnected || snapshot.element.value === snapshot.value) return;
  const { element, value, start, end } = snapshot;
  const proto = Object.getPrototypeOf(element) as object;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(element, value);
  else element.value = value;
  element.dispatchEvent(new Event('input', { bubbles: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
  try {
    if (start !== null && end !== null && !(element instanceof HTMLSelectElement)) element.setSelectionRange(start, end);
  } catch {
    // As above: no selection to put back.
  }
}

/**
 * Marks a ScanInput: the router reads a burst there like anywhere else, but a broken burst typed
 * wholly into it is left to it (the field kept every key, so the code is whole there).
 */
export const SCAN_FIELD_ATTRIBUTE = 'data-scan-field';
const isScanField = (target: EventTarget): boolean => {
  const element = target as HTMLElement;
  return typeof element.closest === 'function' && element.closest(`[${SCAN_FIELD_ATTRIBUTE}]`) !== null;
};

/**
 * The scan router's keyboard side: recognises a keyboard-wedge scan by the scanner's burst
 * (WEDGE_KEY_GAP_MS between keys, a terminator, WEDGE_MIN_LENGTH characters) wherever the focus
 * is, and publishes it with source 'wedge'. A burst that began inside a field (a quantity, a filter,
 * a select) has already put its characters there: once it is known to be a scan, the field gets
 * back what it held when the burst began, and the terminator is swallowed, so Enter does not submit
 * the form, open the dropdown or click the focused button, and Tab does not move the focus. Keys
 * typed by hand are slower than the gap and stay typing; a ScanInput publishes those on Enter itself.
 * A broken burst (its first keys too slow, the rest at scanner speed) is not read: the field
 * gets back what it held before it, and `onBroken` tells the worker to scan again. Listens in the
 * capture phase of the window, before any screen or component handler.
 */
export function attachKeyboardWedge(
  target: Window | Document,
  publish: (scan: Scan) => void,
  { onPerson, ...options }: KeyboardWedgeOptions = {},
): () => void {
  let broken = false;
  let brokenHead = 0;
  const joiner = createWedgeJoiner({
    ...options,
    onBroken: (head) => {
      broken = true;
      brokenHead = head;
    },
  });
  /**
   * What each field the current buffer typed into held before its first key there (the focus can
   * move during a burst: a screen puts it back in its scan field when a request answers), and the
   * same for the buffer before (a broken scan began there).
   */
  let fields = new Map<EventTarget, FieldSnapshot>();
  let before = new Map<EventTarget, FieldSnapshot>();
  const onKeyDown = (event: Event) => {
    const key = event as KeyboardEvent;
    // Chrome's autofill dispatches keydown events without a key.
    if (typeof key.key !== 'string') return;
    if (joiner.startsBurst(key.timeStamp)) {
      before = fields;
      fields = new Map();
    }
    if (key.target && !fields.has(key.target)) {
      const snapshot = snapshotOf(key.target);
      if (snapshot) fields.set(key.target, snapshot);
    }
    broken = false;
    const text = joiner.feed({
      key: key.key,
      timeStamp: key.timeStamp,
      targetIsInput: false,
      ctrlKey: key.ctrlKey,
      altKey: key.altKey,
      metaKey: key.metaKey,
      repeat: key.repeat,
      isComposing: key.isComposing,
    });
    if (text === null && !broken) {
      if (key.key === 'Escape' || isTerminator(key.key)) personActed(key.timeStamp);
      return;
    }
    // A broken scan began with the buffer before this one: those fields get back what they held then.
    // Not for a single key: that is as likely the last key a person typed (a weight, just before
    // scanning the next label) as the scanner's, and a field must never lose what a person typed.
    const restored = text === null && brokenHead > 1 ? new Map([...fields, ...before]) : fields;
    // A broken burst typed wholly into a ScanInput is whole there (the field kept every key): its Enter is the field's.
    if (text === null && restored.size === 1 && isScanField([...restored.keys()][0]!)) {
      fields = new Map();
      before = new Map();
      return;
    }
    key.preventDefault();
    key.stopPropagation();
    for (const snapshot of restored.values()) restore(snapshot);
    fields = new Map();
    before = new Map();
    if (text !== null) publish({ text, format: UNKNOWN_FORMAT, source: 'wedge' });
    else options.onBroken?.(brokenHead);
  };
  /**
   * A person acted (a tap or a click, or one of the keys above). Keys before it were typed (a Space
   * that ticked a box, a digit), not a scanner's slow first key, so a burst soon after it is a whole
   * scan, not the tail of a broken one; and the same label scanned after it is no bounce
   * (`onPerson`). Never in the middle of a burst: a tap is no part of one, and the rest of a cut-off
   * burst must not pass for a whole code.
   */
  const personActed = (timeStamp: number) => {
    if (!joiner.startsBurst(timeStamp)) return;
    joiner.reset();
    fields = new Map();
    before = new Map();
    onPerson?.();
  };
  const onPointerDown = (event: Event) => personActed(event.timeStamp);
  target.addEventListener('keydown', onKeyDown, { capture: true });
  target.addEventListener('pointerdown', onPointerDown, { capture: true });
  return () => {
    target.removeEventListener('keydown', onKeyDown, { capture: true });
    target.removeEventListener('pointerdown', onPointerDown, { capture: true });
  };
}
