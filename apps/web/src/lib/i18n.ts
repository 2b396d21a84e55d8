import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@floorhand/contract/locales/en.json';

// Keys are the English text itself: a missing translation shows English, never a key.
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
  fallbackLng: 'en',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
});

export { i18n };
