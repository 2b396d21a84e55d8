import { expect, test, type Page } from '@playwright/test';
import { adminApi, fillLogin, login, makePerson, PASSWORD, scan, uniqueTag, useMachine, type Api } from './support.ts';

// The screen's language (issue 29): the workstation's setting, else the account's choice in My Account,
// else the browser's languages, else English; picked again whenever the person changes. Spanish texts
// are asserted through the page's `lang`, the pickers' values and a few of the catalogue's texts
// (packages/contract/src/locales/es.json).

const htmlLang = (page: Page) => page.locator('html');
const PUT_SESSION = '/api/capture/session/putSession';

/** Chooses a language in My Account and waits until the server holds it (the preferences' save). */
async function chooseInMyAccount(page: Page, language: 'es' | '') {
  await page.goto('/userAcct');
  const saved = page.waitForResponse((r) => r.url().endsWith(PUT_SESSION) && r.ok());
  await page.getByTestId('my-language').selectOption(language);
  await saved;
}

/** Logs out from the tasks page. */
async function logout(page: Page) {
  await page.goto('/tasks');
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/$/);
}

/** Logs in whatever language the login page shows (its fields found by their autocomplete, not their labels). */
async function loginAnyLanguage(page: Page, userName: string) {
  await page.locator('input[autocomplete="username"]').fill(userName);
  await page.locator('input[autocomplete="current-password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
}

/** A plain worker of this test's own, with a badge for the kiosk. */
async function worker(api: Api & { siteId: string }, tag: string): Promise<{ userName: string; badge: string }> {
  const badge = `LG-${tag}`;
  const userName = await makePerson(api, `lang_${tag.toLowerCase()}`, { firstName: 'Lucía', badgeCode: badge });
  return { userName, badge };
}

test.describe('language', () => {
  test('a worker picks Spanish in My Account: the screen switches at once and on every login; the login page keeps the device language @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const w = await worker(await adminApi(request), uniqueTag(testInfo));
    // The Spanish catalogue is a chunk of its own, fetched only once Spanish is picked.
    const catalogues: string[] = [];
    page.on('request', (r) => {
      if (/\/assets\/es-[\w-]+\.js$/.test(new URL(r.url()).pathname)) catalogues.push(r.url());
    });
    await useMachine(page);
    await login(page, w.userName);
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
    await page.goto('/userAcct');
    await expect(page.getByTestId('my-language')).toHaveValue('');
    expect(catalogues).toEqual([]);

    await chooseInMyAccount(page, 'es');
    await expect(htmlLang(page)).toHaveAttribute('lang', 'es');
    expect(catalogues).toHaveLength(1);
    await expect(page.getByRole('button', { name: 'Menú de cuenta' })).toBeVisible();

    // Kept in the account's preferences: a reload shows it from the first page.
    await page.reload();
    await expect(page.getByTestId('my-language')).toHaveValue('es');
    await expect(htmlLang(page)).toHaveAttribute('lang', 'es');

    // Logged out, the login page is in the device's language (this browser's English) again.
    await logout(page);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
    await fillLogin(page, w.userName);
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'es');

    // Device default again.
    await chooseInMyAccount(page, '');
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
  });

  test('at a kiosk the screen takes the language of the worker whose badge opened it, and the kiosk’s again when they are done', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const w = await worker(api, tag);
    const kiosk = await makePerson(api, `kiosk_lg_${tag.toLowerCase()}`, { kioskAcct: true });
    await useMachine(page);
    await login(page, w.userName);
    await expect(page).toHaveURL(/\/tasks$/);
    await chooseInMyAccount(page, 'es');
    await logout(page);

    await fillLogin(page, kiosk);
    await expect(page).toHaveURL(/\/kiosk$/);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
    await page.getByTestId('kiosk-scan').click();
    await scan(page, w.badge);
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'es');
    await page.getByTestId('kiosk-done').click();
    await expect(page).toHaveURL(/\/kiosk$/);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
  });

  test("two workers on one kiosk with a timeout between them: the first one's Spanish and dark go with her, the next gets the kiosk's, and hers come back with her badge @mobile", async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const lucia = await worker(api, tag);
    const benBadge = `LB-${tag}`;
    await makePerson(api, `lang_b_${tag.toLowerCase()}`, { firstName: 'Ben', badgeCode: benBadge });
    const kiosk = await makePerson(api, `kiosk_lt_${tag.toLowerCase()}`, { kioskAcct: true });
    // The page's clock is the test's: the kiosk's inactivity timeout (15 minutes) passes at once.
    await page.clock.install();
    await page.emulateMedia({ colorScheme: 'light' });
    await useMachine(page);
    // Lucía chose Spanish in My Account at a desk (My Account is not open on a shared device).
    await login(page, lucia.userName);
    await expect(page).toHaveURL(/\/tasks$/);
    await chooseInMyAccount(page, 'es');
    await logout(page);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
    await fillLogin(page, kiosk);
    await expect(page).toHaveURL(/\/kiosk$/);

    // Lucía badges in at the kiosk: Spanish; she picks dark there, from the account menu.
    await page.getByTestId('kiosk-scan').focus();
    await scan(page, lucia.badge);
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'es');
    const saved = page.waitForResponse((r) => r.url().endsWith(PUT_SESSION) && r.ok());
    await page.getByTestId('user-menu').click();
    await page.getByTestId('color-scheme-dark').click();
    await saved;
    await expect(htmlLang(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');

    // She walks away: the timeout, and the kiosk's page is the kiosk's again (English, the device's light).
    await page.clock.fastForward('15:05');
    await expect(page).toHaveURL(/\/kiosk$/, { timeout: 15_000 });
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
    await expect(htmlLang(page)).toHaveAttribute('data-mantine-color-scheme', 'light');

    // Ben, who chose nothing, gets neither.
    await page.getByTestId('kiosk-scan').focus();
    await scan(page, benBadge);
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(page.getByTestId('greeting')).toContainText('Hello Ben');
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
    await expect(htmlLang(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
    // No refusal in the way: the token renewal the timeout's 15 minutes brought as Ben badged in did
    // not start a session for the kiosk account with Ben's human token (lib/session.ts).
    await page.waitForTimeout(500);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByTestId('kiosk-done').click();
    await expect(page).toHaveURL(/\/kiosk$/);

    // Lucía again: hers come back with her badge.
    await page.getByTestId('kiosk-scan').focus();
    await scan(page, lucia.badge);
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'es');
    await expect(htmlLang(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });

  test('a workstation set to Spanish shows Spanish to everyone, from the login page on; App Settings changes it at once', async ({
    page,
  }) => {
    await useMachine(page, { language: 'es' });
    await page.goto('/');
    await expect(page.getByTestId('page-title')).toBeVisible();
    // Shown in Spanish from the first render: the catalogue was waited for.
    expect(await htmlLang(page).getAttribute('lang')).toBe('es');
    await loginAnyLanguage(page, 'admin');
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(htmlLang(page)).toHaveAttribute('lang', 'es');
    await page.goto('/appSettings');
    await expect(page.getByTestId('workstation-language')).toHaveValue('es');
    await page.getByTestId('workstation-language').selectOption('');
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
    await page.reload();
    await expect(page.getByTestId('workstation-language')).toHaveValue('');
    await expect(htmlLang(page)).toHaveAttribute('lang', 'en');
  });
});

test.describe('language of a Spanish browser', () => {
  test.use({ locale: 'es-ES' });

  test('shows the login page in Spanish before anyone logs in, unless the workstation is set to English @mobile', async ({
    page,
    browser,
  }) => {
    await useMachine(page);
    await page.goto('/');
    await expect(page.getByTestId('page-title')).toBeVisible();
    expect(await htmlLang(page).getAttribute('lang')).toBe('es');
    await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: /^Cuenta/ })).toBeVisible();

    const english = await browser.newContext({ locale: 'es-ES' });
    const other = await english.newPage();
    await useMachine(other, { language: 'en' });
    await other.goto('/');
    await expect(other.getByTestId('page-title')).toBeVisible();
    expect(await htmlLang(other).getAttribute('lang')).toBe('en');
    await english.close();
  });
});
