import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';
import { tk } from '@floorhand/contract/i18n';
import { pref, readPrefs, schedulePrefsSave } from './prefs.ts';
import { useSessionStore } from './session-store.ts';

// Light, dark or the device's setting (issue 29): the person's choice, kept in their session prefs
// (section 'account', their own choices, beside their language) so it follows them from device to
// device, and on a kiosk changes with the worker whose badge opened it. Before login (and on the
// login page) nothing is chosen: the device's.

export const COLOR_SCHEMES = ['light', 'dark', 'auto'] as const satisfies readonly MantineColorScheme[];

/** The person's colour scheme: the device's ('auto') unless they chose. */
export const SCHEME_PREFS = { colorScheme: pref.oneOf(COLOR_SCHEMES, 'auto') };

/** The user menu's choices, in its order, with their labels. */
export const COLOR_SCHEME_LABELS = new Map<MantineColorScheme, string>([
  ['light', tk('Light')],
  ['dark', tk('Dark')],
  ['auto', tk('Device')],
]);

/** The session person's colour scheme as stored now. */
export const storedColorScheme = (): MantineColorScheme => readPrefs(SCHEME_PREFS, useSessionStore.getState().prefs.account).colorScheme;

/**
 * Mantine's colour scheme kept in the session prefs instead of localStorage: a choice is stored and
 * saved with the other preferences; a change of the session's prefs (a login, a kiosk worker coming
 * or going, a logout) is applied as it happens.
 */
export function sessionColorSchemeManager(): MantineColorSchemeManager {
  let stop: (() => void) | undefined;
  return {
    get: () => storedColorScheme(),
    set: (value) => {
      // Mantine sets what the subscription below reports too: only a new choice is stored and saved.
      if (value === storedColorScheme()) return;
      useSessionStore.getState().setPref('account', { colorScheme: value });
      schedulePrefsSave();
    },
    subscribe: (onUpdate) => {
      stop?.();
      let shown = storedColorScheme();
      stop = useSessionStore.subscribe(() => {
        const now = storedColorScheme();
        if (now === shown) return;
        shown = now;
        onUpdate(now);
      });
    },
    unsubscribe: () => {
      stop?.();
      stop = undefined;
    },
    clear: () => {
      useSessionStore.getState().setPref('account', { colorScheme: 'auto' });
      schedulePrefsSave();
    },
  };
}
