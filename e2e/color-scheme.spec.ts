import { expect, test, type Page } from '@playwright/test';
import { adminApi, login, makePerson, uniqueTag, useMachine } from './support.ts';

// Light, dark or the device's (issue 29, docs/ui.md): the device's by default and on the login page,
// the person's choice from the account menu once chosen, kept in their preferences on the server (a
// reload and the next login keep it), and the device's again after a logout. A person of this test's
// own: a shared demo account's choice would change other tests' screens.

const scheme = (page: Page) => page.locator('html');
const PUT_SESSION = '/api/capture/session/putSession';

async function choose(page: Page, choice: 'light' | 'dark' | 'auto') {
  const saved = page.waitForResponse((r) => r.url().endsWith(PUT_SESSION) && r.ok());
  await page.getByTestId('user-menu').click();
  await page.getByTestId(`color-scheme-${choice}`).click();
  await saved;
}

test('the colour scheme: the device by default, the person choice kept on the server, the device again after a logout', async ({
  page,
  request,
}, testInfo) => {
  const userName = await makePerson(await adminApi(request), `scheme_${uniqueTag(testInfo).toLowerCase()}`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await useMachine(page);
  await login(page, userName);
  await expect(page).toHaveURL(/\/tasks$/);
  // Nothing chosen: the device's, and it follows the device as it changes.
  await expect(scheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(scheme(page)).toHaveAttribute('data-mantine-color-scheme', 'light');

  // Dark chosen on a light device: kept through a reload (read back from the server's session).
  await choose(page, 'dark');
  await expect(scheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await expect(scheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('color-scheme-dark')).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');

  // A logout: the login page is the device's (light) again; the next login brings the choice back.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(scheme(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
  await login(page, userName);
  await expect(page).toHaveURL(/\/tasks$/);
  await expect(scheme(page)).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await choose(page, 'auto');
  await expect(scheme(page)).toHaveAttribute('data-mantine-color-scheme', 'light');
});
