import { z } from 'zod';
import { en, es } from 'zod/locales';
import { i18n, screenLanguage } from './i18n.ts';

// zod's own messages ("Too small: expected string to have >=3 characters", shown in the admin save
// bars when no schema wrote its own) follow the screen's language, like every other text
// (docs/languages.md). Only the whole app loads this: the login page has no zod.
const LOCALES = new Map([
  ['en', en],
  ['es', es],
]);

/** Sets zod's messages to the screen's language now and whenever it changes. */
export function followScreenLanguage(): void {
  const apply = () => z.config((LOCALES.get(screenLanguage()) ?? en)());
  apply();
  i18n.on('languageChanged', apply);
}
