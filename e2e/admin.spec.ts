import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { PNG } from 'pngjs';
import { adminApi, dialog, expectAxeClean, fillLogin, login, snap, useMachine } from './support.ts';

/** A solid PNG of the given size and colour, as a file for an upload input. */
function pngFile(name: string, width: number, height: number, rgb: [number, number, number]) {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) image.data.set([...rgb, 255], i * 4);
  return { name, mimeType: 'image/png', buffer: PNG.sync.write(image) };
}

/** A screenshot of one part of a long page (a full-page shot of a scrolled page repeats the fixed header). */
async function snapPart(part: Locator, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await part.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

async function logout(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/$/);
}

async function upload(page: Page, button: string, file: ReturnType<typeof pngFile>): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId(button).click();
  await (await chooser).setFiles(file);
}

/** The account editor for a new account with its name and the password e2e-password-1 filled in. */
async function newAccountEditor(page: Page, userName: string): Promise<Locator> {
  await page.goto('/userAcct');
  await page.getByTestId('tab-accounts').click();
  await page.getByTestId('new-account').click();
  const editor = page.getByRole('dialog');
  await editor.getByTestId('acct-username').fill(userName);
  await editor.getByTestId('acct-password').fill('e2e-password-1');
  return editor;
}

/** Cell of the feature grid for a feature and a role. */
const cell = (page: Page, feature: string, role: string) =>
  page.locator(`[data-testid=feature-grid] tr[data-feature="${feature}"] td[data-role="${role}"] button`);

test.describe('administration', () => {
  test('an admin creates an account with a role, hides a work area from that role, and the account loses it at once', async ({
    page,
    browser,
  }, testInfo) => {
    // A long flow with two browsers on a two-core machine shared with the server.
    test.setTimeout(150_000);
    // Unique per run: a retry, or another spec running beside this one, must not meet these.
    const run = Date.now().toString(36);
    const role = `pickless_${testInfo.project.name}_${run}`;
    const user = `e2e_${testInfo.project.name}_${run}`;
    await useMachine(page);
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/tasks$/);

    // A new role…
    await page.goto('/userRoles');
    await page.getByTestId('role-name').fill(role);
    await page.getByTestId('create-role').click();
    await expect(page.locator(`[data-role="${role}"]`)).toBeVisible();

    // …and a new account holding it.
    const editor = await newAccountEditor(page, user);
    await editor.getByTestId('acct-firstname').fill('Erin');
    await editor.getByTestId('acct-surnames').fill('Tester');
    await editor.getByTestId('acct-badge').fill(`B-${user.toUpperCase()}`);
    await editor.getByTestId('roles-demo-main').click();
    await page.getByRole('option', { name: role }).click();
    await editor.getByTestId('acct-save').click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.locator(`[data-account="${user}"]`).first()).toContainText(role);

    // The new account logs in elsewhere and sees Stock Picking.
    const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
    const worker = await other.newPage();
    await useMachine(worker);
    await worker.goto('/');
    await fillLogin(worker, user, { password: 'e2e-password-1' });
    await expect(worker).toHaveURL(/\/tasks$/);
    await expect(worker.locator('[data-testid=task-menu] [data-feature=stockPick]')).toBeVisible();

    // Feature access: the role gets None for Stock Picking (default → None), saved.
    await page.goto('/featureAccess');
    const c = cell(page, 'stockPick', role);
    await expect(c).toHaveAttribute('data-level', 'default');
    await c.hover();
    await expect(page.getByRole('tooltip')).toHaveText('default use');
    await c.click();
    await expect(c).toHaveAttribute('data-level', '0');
    await expect(c).toHaveText('None');
    await page.getByTestId('save-feature-access').click();
    await expect(page.getByText('Feature access is saved; every session follows at once').first()).toBeVisible();

    // The open session loses the work area without reloading; the route is refused.
    await expect(worker.locator('[data-testid=task-menu] [data-feature=stockPick]')).toBeHidden();
    await expect(worker.locator('[data-testid=task-menu] [data-feature=stockLookup]')).toBeVisible();
    await worker.goto('/stockPick');
    await expect(worker).toHaveURL(/\/tasks$/);

    // Made a site admin, the open session gets the admin menu at once, without logging in again.
    await worker.getByTestId('user-menu').click();
    await expect(worker.getByRole('menuitem', { name: 'Feature Access' })).toBeHidden();
    await worker.keyboard.press('Escape');
    await page.goto('/userAcct');
    await page.getByTestId('tab-accounts').click();
    await page.getByRole('textbox', { name: 'Search' }).fill(user);
    await page.getByRole('button', { name: `Edit ${user}` }).click();
    await page.getByRole('dialog').getByTestId('roles-demo-main').click();
    await page.getByRole('option', { name: 'siteAdmin', exact: true }).click();
    await page.getByRole('dialog').getByTestId('acct-save').click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(worker.getByTestId('user-menu')).toBeVisible();
    await worker.getByTestId('user-menu').click();
    await expect(worker.getByRole('menuitem', { name: 'Feature Access' })).toBeVisible();
    await other.close();
    await page.goto('/featureAccess');

    // The cycle goes on to Full, which has no next step; "Tap clears" brings it back to default.
    await c.click();
    await expect(c).toHaveAttribute('data-level', '1');
    await c.click();
    await expect(c).toHaveAttribute('data-level', '1');
    await page.getByTestId('grid-mode').getByText('Tap clears').click();
    await c.click();
    await expect(c).toHaveAttribute('data-level', 'default');
    await page.getByTestId('save-feature-access').click();
    await expect(page.getByText('Feature access is saved; every session follows at once').first()).toBeVisible();

    // Every change is in the audit log.
    await page.getByTestId('tab-audit').click();
    // Other specs write audit entries at the same time: look for this test's own.
    // In words, not API paths.
    await expect(page.getByTestId('audit-entry').filter({ hasText: 'Changed feature access' }).first()).toBeVisible();
    await expect(
      page
        .getByTestId('audit-entry')
        .filter({ hasText: `Created account ${user}` })
        .first(),
    ).toBeVisible();
  });

  test('an organisation admin gives an account roles on the other site, where it then logs in @mobile', async ({
    page,
    browser,
  }, testInfo) => {
    const user = `east_${testInfo.project.name}_${Date.now().toString(36)}`;
    await useMachine(page);
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/tasks$/);
    const editor = await newAccountEditor(page, user);
    // Only this site to begin with; the other site of the organisation is offered.
    await expect(editor.getByTestId('site-perms-demo-main')).toContainText('Demo Warehouse Co. main site');
    await expect(editor.getByTestId('site-perms-demo-east')).toHaveCount(0);
    await editor.getByTestId('add-site').click();
    await page.getByRole('option', { name: 'Demo Warehouse Co. east site (demo-east)' }).click();
    await expect(editor.getByTestId('site-perms-demo-east')).toBeVisible();
    await expect(editor.getByTestId('add-site')).toHaveCount(0);
    await editor.getByTestId('roles-demo-east').click();
    await page.getByRole('option', { name: 'timeclockAdmin', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('option', { name: 'timeclockAdmin', exact: true })).toBeHidden();
    await editor.getByTestId('site-perms-demo-east').scrollIntoViewIfNeeded();
    await snapPart(editor, testInfo, 'account-editor-two-sites');
    await editor.getByTestId('acct-save').click();
    await expect(page.getByRole('dialog')).toBeHidden();

    // The east site answers on east.localhost (a loopback name); the account logs in there.
    const east = await browser.newContext({
      baseURL: page
        .url()
        .replace('//localhost', '//east.localhost')
        .replace(/\/userAcct.*$/, ''),
    });
    const worker = await east.newPage();
    await useMachine(worker);
    await worker.goto('/');
    await fillLogin(worker, user, { password: 'e2e-password-1' });
    await expect(worker).toHaveURL(/\/tasks$/);
    await east.close();
  });

  test('a brand colour, logo and favicon are applied to the theme, login page, favicon and screen saver', async ({ page, browser }) => {
    await useMachine(page);
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/appSettings');
    await page.getByTestId('tab-brand').click();
    // Each colour picker's screen-picker button has a name (it had none: axe critical).
    await expect(page.getByRole('button', { name: /^Pick the colour for / })).toHaveCount(12);

    await page.getByTestId('brand-color-headBg').fill('#7a1f5c');
    await page.getByTestId('brand-color-clickPrimary').fill('#2b7a0b');
    await upload(page, 'upload-logo', pngFile('logo.png', 544, 100, [200, 40, 40]));
    await expect(page.getByTestId('brand-logo-preview')).toHaveAttribute('src', /\/api\/media\/pic\/demo\/[0-9a-f-]{36}$/);
    await upload(page, 'upload-favicon', pngFile('icon.png', 256, 256, [40, 40, 200]));
    await expect(page.getByTestId('favicon-preview').locator('img')).toHaveCount(6);
    await page.getByTestId('save-brand').click();
    await expect(page.getByText('The brand is saved')).toBeVisible();

    // The header and the buttons follow at once; so does the favicon.
    await expect(page.locator('header')).toHaveCSS('background-color', 'rgb(122, 31, 92)');
    await expect(page.getByTestId('save-settings')).toHaveCSS('background-color', 'rgb(43, 122, 11)');
    await expect(page.locator('head link[rel=icon][sizes="32x32"]')).toHaveAttribute(
      'href',
      /\/api\/media\/pic\/demo-main\/demo\/[0-9a-f-]{36}\/32$/,
    );
    const logoSrc = await page.getByTestId('brand-logo-preview').getAttribute('src');

    // A fresh visitor sees them on the login page, and on the screen saver after a few idle seconds.
    const other = await browser.newContext();
    const visitor = await other.newPage();
    await useMachine(visitor, { screenSaver: 0.05 });
    await visitor.goto('/');
    await expect(visitor.locator('header')).toHaveCSS('background-color', 'rgb(122, 31, 92)');
    await expect(visitor.locator(`img[src="${logoSrc}"]`).first()).toBeVisible();
    const saver = visitor.getByTestId('screen-saver');
    await expect(saver).toBeVisible({ timeout: 20_000 });
    const img = saver.locator('img');
    await expect(img).toHaveAttribute('src', logoSrc!);
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(544);
    await other.close();
  });

  test('a workstation id alone is not authorised; paired by the code it shows, its kiosk account may use it @mobile', async ({
    page,
    browser,
  }, testInfo) => {
    const ws = `WS-PAIR-${testInfo.project.name}`;
    const deviceContext = await browser.newContext({ viewport: testInfo.project.use.viewport });
    const device = await deviceContext.newPage();
    await useMachine(device, { id: ws, secret: null });
    await login(device, 'kiosk');
    await expect(device.getByText('This device is not authorised as a kiosk.')).toBeVisible();
    await device.getByRole('button', { name: 'OK' }).click();

    // The admin authorises the id from another device: an id is a claim, the device holds no key yet.
    await useMachine(page);
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/featureAccess');
    await page.getByTestId('tab-workstations').click();
    await page.getByTestId('ws-search').fill(ws);
    const row = page.locator(`[data-ws="${ws}"]:visible`);
    await expect(row).toHaveCount(1);
    await expect(page.locator('[data-ws="WS0001"]:visible')).toHaveCount(0);
    await row.getByTestId(`ws-kiosk-${ws}`).check();
    await expect(page.getByText('The workstation is saved')).toBeVisible();
    await login(device, 'kiosk');
    await expect(device.getByText('This device is not authorised as a kiosk.')).toBeVisible();
    await device.getByRole('button', { name: 'OK' }).click();

    // A clerk on the device shows a pairing code; the admin enters it; the device receives its key.
    await login(device, 'clerk');
    await expect(device).toHaveURL(/\/tasks$/);
    await device.goto('/appSettings');
    await expect(device.getByTestId('workstation-id')).toHaveAttribute('readonly');
    await device.getByTestId('pair-start').click();
    const code = (await device.getByTestId('pair-code').innerText()).replace(/\s/g, '');
    expect(code).toMatch(/^[A-Z0-9]{6}$/);
    await snap(device, testInfo, 'pair-device-code');
    await page.getByTestId('pair-code-input').fill(code.toLowerCase());
    await page.getByTestId('pair-submit').click();
    await expect(page.getByText('The device is paired')).toBeVisible();
    await expect(device.getByTestId('pair-state')).toHaveText('This device holds its authorisation key.', { timeout: 15_000 });

    await logout(device);
    await login(device, 'kiosk');
    await expect(device).toHaveURL(/\/kiosk$/);

    // Another browser sends the same id without the key and shows a code: entering it takes nothing
    // over until the admin confirms "Replace this device", shown who last used the real one.
    const otherContext = await browser.newContext({ viewport: testInfo.project.use.viewport });
    const other = await otherContext.newPage();
    await useMachine(other, { id: ws, secret: null });
    await login(other, 'clerk');
    await expect(other).toHaveURL(/\/tasks$/);
    await other.goto('/appSettings');
    await other.getByTestId('pair-start').click();
    const second = (await other.getByTestId('pair-code').innerText()).replace(/\s/g, '');
    await page.getByTestId('pair-code-input').fill(second);
    await page.getByTestId('pair-submit').click();
    const replace = dialog(page, 'Replace this device?');
    await expect(replace).toContainText(`Workstation ${ws} is already an authorised device: last account kiosk`);
    await snap(page, testInfo, 'pair-replace-confirm');
    await replace.getByRole('button', { name: 'Cancel' }).click();
    await expect(replace).toHaveCount(0);
    await expect(page.getByTestId('pair-code-input')).toHaveValue(second);
    await page.getByTestId('pair-submit').click();
    await dialog(page, 'Replace this device?').getByRole('button', { name: 'Replace this device' }).click();
    await expect(other.getByTestId('pair-state')).toHaveText('This device holds its authorisation key.', { timeout: 15_000 });
    await otherContext.close();
    await deviceContext.close();
  });

  test('the workstation id is kept from the first load, and an admin removes a stale id', async ({ page, browser }) => {
    const fresh = await browser.newContext();
    const visitor = await fresh.newPage();
    await visitor.goto('/');
    await expect(visitor.getByRole('button', { name: 'Log in' })).toBeEnabled();
    const idOf = () =>
      visitor.evaluate(
        () =>
          (JSON.parse(localStorage.getItem('machine_settings') ?? '{}') as { state?: { workstation?: { id?: string } } }).state?.workstation
            ?.id,
      );
    const id = await idOf();
    expect(id).toMatch(/^WS\d{4}$/);
    await visitor.reload();
    await expect(visitor.getByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(await idOf()).toBe(id);
    await fillLogin(visitor, 'clerk');
    await expect(visitor).toHaveURL(/\/tasks$/);
    await fresh.close();

    await useMachine(page);
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/featureAccess');
    await page.getByTestId('tab-workstations').click();
    await page.getByTestId('ws-search').fill(id!);
    await expect(page.locator(`[data-ws="${id}"]:visible`)).toHaveCount(1);
    await page.getByTestId(`ws-remove-${id}`).locator('visible=true').click();
    await dialog(page, 'Delete').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('The workstation is removed')).toBeVisible();
    await expect(page.locator(`[data-ws="${id}"]:visible`)).toHaveCount(0);
  });

  test('a password an admin set must be changed before any other page opens @mobile', async ({ page, request }, testInfo) => {
    const api = await adminApi(request);
    const userName = `temp_${testInfo.project.name}_${Date.now().toString(36)}`;
    const created = (await api('admin/account/create', {
      account: { userName, firstName: 'Temp', surnames: 'Worker', email: '', badgeCode: '' },
      password: 'first-pass-123',
      perms: [{ siteId: api.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
    })) as { account: { id: string } };
    await api('admin/account/setPassword', { accountId: created.account.id, password: 'temp-pass-123' });
    await useMachine(page);
    await page.goto('/');
    await fillLogin(page, userName, { password: 'temp-pass-123' });
    await expect(page).toHaveURL(/\/userAcct$/);
    await expect(page.getByTestId('must-change-password')).toBeVisible();
    await page.goto('/tasks');
    await expect(page).toHaveURL(/\/userAcct$/);
    await snap(page, testInfo, 'must-change-password');
    await page.getByLabel('Current password').fill('temp-pass-123');
    await page.getByLabel('New password', { exact: true }).fill('my-own-pass-9');
    await page.getByLabel('Repeat the new password').fill('my-own-pass-9');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password is changed')).toBeVisible();
    await expect(page.getByTestId('must-change-password')).toHaveCount(0);
    await page.goto('/tasks');
    await expect(page).toHaveURL(/\/tasks$/);
  });

  test('everyone edits their own account and sees their staff label', async ({ page }) => {
    await useMachine(page);
    await login(page, 'tcadmin');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/userAcct');
    await expect(page.getByTestId('my-account')).toContainText('tcadmin');
    await expect(page.getByTestId('tab-accounts')).toHaveCount(0);
    await expect(page.getByTestId('badge-barcode').locator('svg')).toBeVisible();
    // A first name cannot be left blank.
    await page.getByTestId('my-first-name').fill('  ');
    await expect(page.getByText("'First name' must be provided")).toBeVisible();
    await expect(page.getByTestId('save-my-account')).toBeDisabled();
    await page.getByTestId('my-first-name').fill('Thomas');
    await page.getByTestId('save-my-account').click();
    await expect(page.getByText('Your account is saved')).toBeVisible();
    await expect(page.getByTestId('user-menu')).toContainText('Thomas');
    await page.getByLabel('Current password').fill('wrong-one');
    await page.getByLabel('New password', { exact: true }).fill('another-pass-9');
    await page.getByLabel('Repeat the new password').fill('another-pass-9');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(dialog(page, 'Error')).toContainText('The current password is not correct.');
  });

  test('Feature Access is readable at 360 px: every role reachable, whole cells on the screen, 44 px tap-mode controls @mobile', async ({
    page,
  }, testInfo) => {
    const narrow = testInfo.project.name === 'mobile';
    await useMachine(page);
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/featureAccess');
    const grid = page.getByTestId('feature-grid');
    await expect(grid).toBeVisible();
    // "Tap cycles" and "Tap clears": at least 44 px high.
    for (const name of ['Tap cycles', 'Tap clears']) {
      const box = (await page.getByTestId('grid-mode').locator('label').filter({ hasText: name }).boundingBox())!;
      expect(box.height, name).toBeGreaterThanOrEqual(44);
    }
    const width = page.viewportSize()!.width;
    /** The role columns the grid shows, each with its header and last cell wholly on the screen (no sideways scroll). */
    const shownRoles = async () => {
      const roles = await grid.locator('thead th[data-role]').evaluateAll((ths) => ths.map((th) => th.getAttribute('data-role')!));
      for (const role of roles) {
        const last = grid.locator(`tbody tr:last-child td[data-role="${role}"] button`);
        const box = (await last.boundingBox())!;
        expect(box.x + box.width, `${role}'s cells end on the screen`).toBeLessThanOrEqual(width);
        expect(box.height).toBeGreaterThanOrEqual(44);
      }
      return roles;
    };
    if (!narrow) {
      // At 1440 every role is a column of the one grid, as before.
      expect((await shownRoles()).length).toBeGreaterThanOrEqual(4);
      await expect(page.getByTestId('grid-role')).toHaveCount(0);
      return;
    }
    // At 360: one role at a time, chosen by a 44 px select; every role of the site can be read.
    const select = page.getByTestId('grid-role');
    expect((await select.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    const options = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options.length).toBeGreaterThanOrEqual(4);
    for (const role of options) {
      await select.selectOption(role);
      expect(await shownRoles()).toEqual([role]);
    }
    // Nothing wider than the screen: no column to scroll to.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectAxeClean(page, 'Feature Access 360');
  });

  test('administration screens @mobile', async ({ page }, testInfo) => {
    await useMachine(page);
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/userAcct');
    await expect(page.getByTestId('staff-label')).toBeVisible();
    await expect(page.getByTestId('badge-barcode').locator('svg')).toBeVisible();
    await snap(page, testInfo, 'admin-my-account');
    await page.getByTestId('tab-accounts').click();
    await expect(page.locator('[data-account="clerk"]:visible')).toBeVisible();
    await snap(page, testInfo, 'admin-accounts');
    // Other specs add accounts to the shared demo organisation: find svc by the search, as an admin would.
    await page.getByRole('textbox', { name: 'Search' }).fill('svc');
    // Desktop: the row's Edit button; handhelds: the account's card is the button.
    const svc = page.locator('[data-account="svc"]:visible');
    await ((await svc.evaluate((el) => el.tagName)) === 'BUTTON' ? svc : svc.getByRole('button')).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.getByTestId('api-key-state')).toBeVisible();
    await page.waitForTimeout(400); // the modal's opening transition
    // What the user sees: a full-page shot of a scrolled page draws fixed layers (the modal) out of place.
    const path = testInfo.outputPath('admin-account-editor.png');
    await page.screenshot({ path });
    await testInfo.attach('admin-account-editor', { path, contentType: 'image/png' });
    await page.keyboard.press('Escape');
    await page.goto('/userRoles');
    await expect(page.locator('[data-role="orgAdmin"]')).toBeVisible();
    await snap(page, testInfo, 'admin-roles');
    await page.goto('/featureAccess');
    await expect(page.getByTestId('feature-grid')).toBeVisible();
    await snap(page, testInfo, 'admin-feature-access');
    await page.getByTestId('tab-workstations').click();
    await expect(page.locator('[data-ws="WS0001"]:visible')).toBeVisible();
    await snap(page, testInfo, 'admin-workstations');
    await page.getByTestId('tab-audit').click();
    await snap(page, testInfo, 'admin-audit');
    await page.goto('/appSettings');
    await expect(page.getByTestId('site-settings-admin')).toBeVisible();
    await snapPart(page.getByTestId('site-settings-admin'), testInfo, 'admin-site-settings');
    await page.getByTestId('tab-brand').click();
    await expect(page.getByTestId('brand-color-primary')).toBeVisible();
    await snapPart(page.getByTestId('site-settings-admin'), testInfo, 'admin-brand');
    await logout(page);
  });
});
