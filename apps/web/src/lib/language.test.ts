import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pickLanguage } from '@floorhand/contract/i18n';
import { i18n, screenDecimalSeparator } from './i18n.ts';
import { followLanguage, forgetAccountLanguage, languageShown, pickedLanguage } from './language.ts';
import { useMachineStore } from './machine-store.ts';
import { useSessionStore } from './session-store.ts';

// The Spanish catalogue as the lead will merge it; here a stand-in with one text, so the test sees
// the catalogue arrive (the file in this branch is still empty).
const esLoads = vi.hoisted(() => ({ count: 0 }));
vi.mock('@floorhand/contract/locales/es.json', () => {
  esLoads.count++;
  return { default: { Save: 'Guardar' } };
});

/** The browser's languages, as navigator.languages gives them. */
function browserLanguages(tags: string[]): void {
  Object.defineProperty(window.navigator, 'languages', { configurable: true, get: () => tags });
}

const accountChooses = (language: string | null) => useSessionStore.getState().setPref('account', { language });

describe('pickLanguage', () => {
  it('takes the workstation, then the account, then the browser languages in order, then English', () => {
    expect(pickLanguage({ workstation: 'es', account: 'en', browser: ['en-US'] })).toBe('es');
    expect(pickLanguage({ workstation: null, account: 'es', browser: ['en-US'] })).toBe('es');
    expect(pickLanguage({ workstation: null, account: null, browser: ['fr-FR', 'es-ES', 'en'] })).toBe('es');
    expect(pickLanguage({ workstation: 'de', account: 'xx', browser: ['de-DE'] })).toBe('en');
    expect(pickLanguage({})).toBe('en');
  });
});

describe("the screen's language", () => {
  beforeEach(() => {
    browserLanguages(['en-US', 'en']);
    useMachineStore.getState().save({ language: null });
    useSessionStore.getState().reset();
  });
  afterEach(async () => {
    useMachineStore.getState().save({ language: null });
    useSessionStore.getState().reset();
    await languageShown();
  });

  it("is the browser's before anyone logs in: a Spanish browser gets the Spanish catalogue, fetched only then", async () => {
    await followLanguage();
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(esLoads.count).toBe(0);
    browserLanguages(['es-ES', 'en']);
    window.dispatchEvent(new Event('languagechange'));
    await languageShown();
    expect(i18n.language).toBe('es');
    expect(i18n.t('Save')).toBe('Guardar');
    expect(document.documentElement.lang).toBe('es');
    expect(screenDecimalSeparator()).toBe(',');
    expect(esLoads.count).toBe(1);
  });

  it("follows the account's choice when it loads, and forgets it with the person", async () => {
    await followLanguage();
    accountChooses('es');
    await languageShown();
    expect(pickedLanguage()).toBe('es');
    expect(i18n.language).toBe('es');
    forgetAccountLanguage();
    await languageShown();
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    accountChooses('es');
    await languageShown();
    // A logout resets the session: the login page is in the browser's language again.
    useSessionStore.getState().reset();
    await languageShown();
    expect(i18n.language).toBe('en');
  });

  it("is the workstation's whatever the account chose, and the account's again once the workstation has none", async () => {
    await followLanguage();
    accountChooses('en');
    useMachineStore.getState().save({ language: 'es' });
    await languageShown();
    expect(i18n.language).toBe('es');
    useMachineStore.getState().save({ language: null });
    await languageShown();
    expect(i18n.language).toBe('en');
    browserLanguages(['es']);
    expect(pickedLanguage()).toBe('en');
    accountChooses(null);
    expect(pickedLanguage()).toBe('es');
  });

  it('keeps the last choice when a slower catalogue arrives after it', async () => {
    await followLanguage();
    i18n.removeResourceBundle('es', 'translation');
    accountChooses('es');
    accountChooses('en');
    await languageShown();
    await new Promise((r) => setTimeout(r, 0));
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});
