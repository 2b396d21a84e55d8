import { isLanguage, pickLanguage, type Language } from '@floorhand/contract/i18n';
import { showLanguage } from './i18n.ts';
import { useMachineStore } from './machine-store.ts';
import type { Pref } from './prefs.ts';
import { useSessionStore } from './session-store.ts';

// Which language the screen shows (issue 29): the workstation's setting (machine_settings), else the
// choice of the person whose session it is (My Account, kept in their session preferences), else the
// browser's languages, else English (contract pickLanguage). Picked again whenever one of them
// changes: a setting saved, a login or logout, a kiosk worker coming or going (their preferences load).
// This module is in the first load (the login page shows in the workstation's or browser's language):
// it reads the stores and nothing that reaches the API or the socket.

/** My Account's preferences (session prefs, section `account`): `language` null is "Device default". */
const accountLanguage: Pref<Language | null> = { default: null, read: (v) => (isLanguage(v) ? v : null) };
export const ACCOUNT_PREFS = { language: accountLanguage };

/** The language of this screen now, from the stores and the browser. */
export function pickedLanguage(): Language {
  return pickLanguage({
    workstation: useMachineStore.getState().language,
    account: ACCOUNT_PREFS.language.read(useSessionStore.getState().prefs.account?.language),
    browser: globalThis.navigator?.languages,
  });
}

let shown: Language | undefined;
let showing: Promise<void> = Promise.resolve();

/** Shows the picked language when it differs from the one shown (or asked for) last. */
function follow(): Promise<void> {
  const lang = pickedLanguage();
  if (lang !== shown) {
    shown = lang;
    showing = showLanguage(lang);
  }
  return showing;
}

let following = false;
/**
 * Shows the picked language and follows every change of what picks it. The promise settles once the
 * language shows (its catalogue fetched): the first render waits for it, so a Spanish screen does not
 * flash English first.
 */
export function followLanguage(): Promise<void> {
  if (!following) {
    following = true;
    useMachineStore.subscribe(() => void follow());
    useSessionStore.subscribe(() => void follow());
    globalThis.addEventListener?.('languagechange', () => void follow());
  }
  return follow();
}

/** Settles once the language last picked shows: a page drawn after a login or resume waits for it. */
export const languageShown = (): Promise<void> => showing;

/**
 * The person's choice goes with them (onPersonEnds): until the next person's preferences load, the
 * screen is in the workstation's or the browser's language, never in the last person's.
 */
export function forgetAccountLanguage(): void {
  const { prefs, set } = useSessionStore.getState();
  if (!prefs.account || !('language' in prefs.account)) return;
  const { language: _forgotten, ...rest } = prefs.account;
  set({ prefs: { ...prefs, account: rest } });
}
