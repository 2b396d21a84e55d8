import { expect, test } from '@playwright/test';
import { expectAxeClean, fillLogin, login, snap, useMachine } from './support.ts';
import { expectConnection } from './offline-support.ts';

// The connection as the worker sees it (issue 27 item 2, item 6): the header's indicator with its
// three states at 360 too, a request that cannot reach the server never shown as an error dialog,
// and the screens that need the server saying so. (The service worker is blocked here: page.route
// then sees every request, which is how these tests take the uplink down with the device online.)

const noErrorDialog = async (page: import('@playwright/test').Page) => {
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Failed to fetch')).toHaveCount(0);
};

test.describe('offline: the connection in the header', () => {
  test('online, offline and back, at 360: the indicator says which, axe-clean, and a read that fails shows no error dialog @mobile', async ({
    page,
    context,
  }, testInfo) => {
    await useMachine(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    await expectConnection(page, 'online', 0);
    const ind = page.getByTestId('connection-indicator').getByRole('button');
    await expect(ind).toHaveAccessibleName('Online');
    const box = await ind.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(44);
    expect(box!.height).toBeGreaterThanOrEqual(44);

    await page.goto('/stockLookup');
    await expect(page.getByTestId('page-title')).toHaveText('Stock Lookup');
    await context.setOffline(true);
    await expectConnection(page, 'offline');
    await expect(ind).toHaveAccessibleName('Offline');
    // A lookup with no network: no "TypeError: Failed to fetch" dialog.
    await page.getByTestId('header-scan').focus();
    await noErrorDialog(page);
    await expectAxeClean(page, 'stock lookup offline at 360');
    await snap(page, testInfo, 'offline-header');
    // The indicator opens the outbox list.
    await ind.click();
    await expect(page.getByTestId('outbox-list')).toContainText('Nothing is waiting to be sent.');
    await page.keyboard.press('Escape');

    await context.setOffline(false);
    await expectConnection(page, 'online');
  });

  test('the uplink down with the device online: reconnecting, a notice and no dialog, then online again by itself', async ({ page }) => {
    await useMachine(page);
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/home$|\/tasks$/);
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    // An administration screen: its reads fail; it says it needs the server.
    await page.goto('/userRoles').catch(() => undefined);
    await expectConnection(page, 'reconnecting');
    await expect(page.getByTestId('needs-server')).toBeVisible();
    await noErrorDialog(page);
    await page.unroute('**/api/**');
    // The probe finds the server again without anyone doing anything.
    await expectConnection(page, 'online');
    await expect(page.getByTestId('needs-server')).toHaveCount(0);
  });

  test('logging in needs the server, and the login page says so', async ({ page }) => {
    await useMachine(page);
    await page.goto('/');
    await page.route('**/api/auth/login', (route) => route.abort('connectionrefused'));
    await fillLogin(page, 'clerk');
    await expect(page.getByText('Logging in needs the server')).toBeVisible();
    await noErrorDialog(page);
  });
});
