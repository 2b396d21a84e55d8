import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@floorhand/contract/locales/en.json';
import { DEFAULT_LANGUAGE, decimalSeparatorOf, isLanguage, type Catalogue, type Language } from '@floorhand/contract/i18n';

// Keys are the English text itself: a missing translation shows English, never a key.
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
});

/**
 * The other languages' catalogues, each a chunk of its own fetched the first time the language is
 * shown: the first load (the login page, in English on most devices) carries none of them.
 */
const CATALOGUES: ReadonlyMap<Language, () => Promise<{ default: Catalogue }>> = new Map([
  ['es', () => import('@floorhand/contract/locales/es.json')],
]);

/** The language last asked for: a slower catalogue that arrives after a later choice does not win. */
let wanted: Language = DEFAULT_LANGUAGE;

/**
 * Shows the screen in a language: its catalogue first (fetched once), then i18next and the page's
 * `lang` (screen readers, hyphenation, the browser's own controls). A catalogue that cannot be fetched
 * (offline before the service worker held it) leaves the screen as it is.
 */
export async function showLanguage(lang: Language): Promise<void> {
  wanted = lang;
  const load = CATALOGUES.get(lang);
  if (load && !i18n.hasResourceBundle(lang, 'translation')) {
    try {
      i18n.addResourceBundle(lang, 'translation', (await load()).default);
    } catch (e) {
      console.warn(`i18n: the ${lang} catalogue could not be loaded`, e);
      return;
    }
  }
  if (wanted !== lang) return;
  if (i18n.language !== lang) await i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
}

/** The language the screen shows now. */
export const screenLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

/** The decimal separator quantities are typed and shown with on this screen: "2,5" in Spanish. */
export const screenDecimalSeparator = (): '.' | ',' => decimalSeparatorOf(screenLanguage());

export { i18n };
