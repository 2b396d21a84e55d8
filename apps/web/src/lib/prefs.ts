import { useCallback, useMemo } from 'react';
import { savePrefs } from './session.ts';
import { useSessionStore, type PrefSection } from './session-store.ts';

// Per-user UI preferences of a work area (session prefs, spec section 3). What the server hands back
// was written by older or newer clients too, so each value is read through its own small rule and
// falls back to its default when it is missing or of the wrong kind.

export interface Pref<T> {
  default: T;
  read(raw: unknown): T;
}

export const pref = {
  bool: (fallback: boolean): Pref<boolean> => ({ default: fallback, read: (v) => (typeof v === 'boolean' ? v : fallback) }),
  /** Text, or null for "not set" (e.g. "all warehouses"). */
  text: (fallback: string | null = null): Pref<string | null> => ({
    default: fallback,
    read: (v) => (typeof v === 'string' ? v : v === null ? null : fallback),
  }),
  int: (fallback: number, min: number, max: number): Pref<number> => ({
    default: fallback,
    read: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fallback),
  }),
  oneOf: <const T extends string>(values: readonly T[], fallback: T): Pref<T> => ({
    default: fallback,
    read: (v) => (values.includes(v as T) ? (v as T) : fallback),
  }),
};

export type PrefsSpec = Record<string, Pref<unknown>>;
export type PrefsOf<S extends PrefsSpec> = { [K in keyof S]: S[K]['default'] };

/** A section's preferences: every key of the spec, read from what is stored. */
export function readPrefs<S extends PrefsSpec>(spec: S, raw: unknown): PrefsOf<S> {
  const stored = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return Object.fromEntries(Object.entries(spec).map(([key, p]) => [key, p.read(stored[key])])) as PrefsOf<S>;
}

/** A burst of changes (a number being typed, filters clicked in a row) is sent once. */
export const PREFS_SAVE_DELAY_MS = 800;
let saveTimer: ReturnType<typeof setTimeout> | undefined;

/** Preferences go to the server whenever they change (spec section 7, putSession), debounced. */
export function schedulePrefsSave(delayMs = PREFS_SAVE_DELAY_MS): void {
  clearTimeout(saveTimer);
  // A failed save has shown its error dialog already; the next change sends everything again.
  saveTimer = setTimeout(() => {
    saveTimer = undefined;
    void savePrefs().catch(() => undefined);
  }, delayMs);
}

/**
 * A save still waiting for its delay goes at once, as a request that outlives the page: a filter
 * chosen and the page reloaded (or the tab closed) within the delay is not lost.
 */
export function flushPrefsSave(): void {
  if (saveTimer === undefined) return;
  clearTimeout(saveTimer);
  saveTimer = undefined;
  void savePrefs({ keepalive: true }).catch(() => undefined);
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', flushPrefsSave);

/** One section's preferences and a setter that stores a change and schedules its save. */
export function usePrefs<S extends PrefsSpec>(section: PrefSection, spec: S): [PrefsOf<S>, (patch: Partial<PrefsOf<S>>) => void] {
  const raw = useSessionStore((s) => s.prefs[section]);
  const prefs = useMemo(() => readPrefs(spec, raw), [spec, raw]);
  const set = useCallback(
    (patch: Partial<PrefsOf<S>>) => {
      useSessionStore.getState().setPref(section, patch);
      schedulePrefsSave();
    },
    [section],
  );
  return [prefs, set];
}
