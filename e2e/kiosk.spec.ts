import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { adminApi, dialog, login, PASSWORD, useMachine, type Api, uniqueTag, expectAxeClean, scan, wedgeScan } from './support.ts';
import { makeOrder, SHORT } from './order-fixtures.ts';

// The kiosk (docs/kiosk.md): a shared tablet signed in as the kiosk account; a worker's badge (a
// keyboard-wedge scan) makes the session theirs with a human token, stock lookup and adjust work as
// that person, and "Done" (or the inactivity timeout) returns to the kiosk page.

async function docShot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: fileURLToPath(new URL(`../docs/screenshots/${name}.png`, import.meta.url)) });
}

/** A keyboard-wedge scan into the page's scan field (`field`), then Enter. */
async function wedge(page: Page, code: string, field: string) {
  await page.getByTestId(field).click();
  await scan(page, code);
}

/** A worker with a badge, and a stock record of 10 of this test's own item. */
async function fixture(api: Api & { siteId: string }, tag: string, { badge = `KI-${tag}`, firstName = 'Kim' } = {}) {
  const userName = `ki_${tag.toLowerCase()}`;
  const created = (await api('admin/account/create', {
    account: { userName, firstName, surnames: `Kiosk${tag}`, email: '', badgeCode: badge },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  })) as { account: { id: string } };
  const part = `KIO-${tag}`;
  await api('item/save', { record: { partNumber: part, description: `Kiosk widget ${tag}`, uom: 'EA', tracking: 'none', barcodes: [] } });
  await api('location/save', { record: { warehouse: 'MAIN', code: `K-${tag}`, description: 'Kiosk bin', type: 'bin' } });
  const res = (await api('stock/receive', {
    idempotencyKey: `kiosk-${tag}`,
    record: { partNumber: part, warehouse: 'MAIN', location: `K-${tag}`, quantity: 10, conditionCode: 'NE' },
  })) as { stock: { stockId: string } };
  return { badge, userName, part, stockId: res.stock.stockId, accountId: created.account.id };
}

/** A kiosk account of the test's own: a badge at a kiosk ends every session of that kiosk account, so tests running beside each other must not share it. */
async function ownKiosk(api: Api & { siteId: string }, tag: string): Promise<string> {
  const kiosk = `kiosk_${tag.toLowerCase()}`;
  await api('admin/account/create', {
    account: { userName: kiosk, firstName: 'Kiosk', surnames: tag, email: '', badgeCode: '' },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles: [], kioskAcct: true, timeclockAcct: false, serviceAcct: false }],
  });
  return kiosk;
}

const humanTokenOf = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('auth_settings') ?? '{}') as { state?: { humanToken?: string } }).state?.humanToken);

test.describe('kiosk', () => {
  test('a badge opens the worker session; stock is adjusted as the worker; done returns to the kiosk @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await fixture(api, tag);
    const size = testInfo.project.name === 'mobile' ? '360' : '1440';
    await useMachine(page);
    await login(page, 'kiosk');
    await expect(page).toHaveURL(/\/kiosk$/);
    await expect(page.getByTestId('kiosk-title')).toBeVisible();
    // No staff directory on the kiosk.
    await expect(page.getByText('Admin')).toHaveCount(0);
    await expectAxeClean(page, `kiosk ${size}`);
    await docShot(page, `kiosk-${size}`);

    // Without a worker the kiosk cannot open the work pages.
    await wedge(page, f.badge, 'kiosk-scan');
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(page.getByTestId('kiosk-done')).toContainText('Kim');
    const humanToken = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('auth_settings') ?? '{}') as { state?: { humanToken?: string } }).state?.humanToken,
    );
    expect(humanToken).toMatch(/^hum_/);
    await expectAxeClean(page, `kiosk session ${size}`);
    await docShot(page, `kiosk-session-${size}`);

    // Stock lookup by wedge scan, then adjust, as the worker.
    await page.locator('[data-feature="stockLookup"]').click();
    await expect(page).toHaveURL(/\/stockLookup/);
    await wedge(page, f.stockId, 'lookup-input');
    await page.getByTestId('stock-row-adjust').first().click();
    await expect(page).toHaveURL(new RegExp(`/stockAdjust/${f.stockId}$`));
    await page.getByTestId('adjust-action').getByText('Adjust', { exact: true }).click();
    await page.getByTestId('adjust-mode').getByText('Add', { exact: true }).click();
    await page.getByTestId('adjust-qty').fill('2');
    await page.getByTestId('adjust-reason').click();
    await page.getByRole('option', { name: 'Found', exact: true }).click();
    await page.getByTestId('adjust-submit').click();
    const d = dialog(page, 'Adjust quantity');
    await expect(d).toBeVisible();
    await d.getByRole('button', { name: 'Adjust', exact: true }).click();
    await expect(page.getByTestId('change-result')).toContainText(`${f.stockId} adjusted to 12 EA`);
    await docShot(page, `kiosk-adjusted-${size}`);

    // The movement names the worker, not the kiosk account.
    const got = (await api('stock/get', { stockId: f.stockId })) as { movements: Array<{ user: string; userName?: string; type: string }> };
    const adjustMove = got.movements.find((m) => m.type === 'adjust');
    expect(adjustMove?.user).toBe(f.accountId);

    await page.getByTestId('kiosk-done').click();
    await expect(page).toHaveURL(/\/kiosk$/);
    await expect(page.getByTestId('kiosk-done')).toHaveCount(0);
    const after = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('auth_settings') ?? '{}') as { state?: { humanToken?: string | null } }).state?.humanToken,
    );
    expect(after ?? null).toBeNull();
    // The revoked token is refused by the server.
    const base = { siteId: api.siteId, appId: 'floorhand', orgId: 'demo' };
    const kioskLogin = (await (
      await request.post('/api/auth/login', {
        data: { ...base, userName: 'kiosk', password: PASSWORD, workstationId: 'WS0001', workstationSecret: 'demo-workstation-secret' },
      })
    ).json()) as { authToken: string };
    const res = await request.post('/api/stock/get', {
      data: { ...base, stockId: f.stockId },
      headers: { authorization: `Bearer ${kioskLogin.authToken}`, 'x-human-token': humanToken! },
    });
    expect(res.status()).toBe(401);
  });

  test('a second badge scanned during a worker session, in whatever field has focus, switches the kiosk to that worker @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const anna = await fixture(api, `${tag}A`, { badge: `B-KA${tag}`, firstName: 'Anna' });
    const ben = await fixture(api, `${tag}B`, { badge: `B-KB${tag}`, firstName: 'Ben' });
    const kiosk = await ownKiosk(api, tag);
    await useMachine(page);
    await login(page, kiosk);
    await expect(page).toHaveURL(/\/kiosk$/);
    await wedge(page, anna.badge, 'kiosk-scan');
    await expect(page.getByTestId('kiosk-done')).toContainText('Anna');
    const humanToken = () => humanTokenOf(page);
    const annas = await humanToken();

    // Anna is on Stock Lookup with the lookup field focused; a location that looks like a badge is still a location.
    await page.locator('[data-feature="stockLookup"]').click();
    await expect(page).toHaveURL(/\/stockLookup/);
    await page.getByTestId('lookup-input').focus();
    await scan(page, anna.stockId);
    await expect(page.getByTestId('stock-row-adjust').first()).toBeVisible();

    // Ben's badge, scanned while a quantity field of Anna's adjust form has the focus.
    await page.getByTestId('stock-row-adjust').first().click();
    await page.getByTestId('adjust-action').getByText('Adjust', { exact: true }).click();
    await page.getByTestId('adjust-qty').fill('3');
    await scan(page, ben.badge);
    await expect(page.getByTestId('kiosk-done')).toContainText('Ben');
    await expect(page).toHaveURL(/\/tasks$/);
    const bens = await humanToken();
    expect(bens).toMatch(/^hum_/);
    expect(bens).not.toBe(annas);

    // Anna's session ended on the server: her token is refused.
    const base = { siteId: api.siteId, appId: 'floorhand', orgId: 'demo' };
    const kioskLogin = (await (
      await request.post('/api/auth/login', {
        data: { ...base, userName: kiosk, password: PASSWORD, workstationId: 'WS0001', workstationSecret: 'demo-workstation-secret' },
      })
    ).json()) as { authToken: string };
    const res = await request.post('/api/stock/get', {
      data: { ...base, stockId: anna.stockId },
      headers: { authorization: `Bearer ${kioskLogin.authToken}`, 'x-human-token': annas! },
    });
    expect(res.status()).toBe(401);
    // Nothing of the scan was typed into Anna's form, and nothing was adjusted.
    const got = (await api('stock/get', { stockId: anna.stockId })) as { stock: { quantity: number } };
    expect(got.stock.quantity).toBe(10);
  });

  test("two workers on one kiosk with a timeout between them: the next sees none of the first one's work, is greeted by name, and no dialog is left in the way @mobile", async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const anna = await fixture(api, `${tag}A`, { badge: `B-KA${tag}`, firstName: 'Anna' });
    const ben = await fixture(api, `${tag}B`, { badge: `B-KB${tag}`, firstName: 'Ben' });
    // Labor is booked only while clocked in.
    for (const w of [anna, ben]) await api('timeclock/punch', { badge: w.badge });
    const taskCode = `KT${tag}`;
    await api('task/upsert', {
      record: {
        taskCode,
        kind: 'wos',
        orderNumber: `WO${tag}`,
        operationNumber: '10',
        description: 'Kiosk operation',
        workCentre: 'BENCH',
        plannedMinutes: 30,
      },
    });
    const kiosk = await ownKiosk(api, tag);
    // The page's clock is the test's: the kiosk's inactivity timeout (15 minutes) passes at once.
    await page.clock.install();
    await useMachine(page);
    await login(page, kiosk);
    await expect(page).toHaveURL(/\/kiosk$/);

    // Anna badges in, is greeted by name (not the kiosk account's), and starts an operation.
    // (The page's animation frames follow the fake clock: the scan fields are focused, not clicked.)
    await page.getByTestId('kiosk-scan').focus();
    await scan(page, anna.badge);
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(page.getByTestId('greeting')).toContainText('Hello Anna');
    // The header names the worker (the name is shown from the sm breakpoint up).
    await expect(page.getByTestId('user-menu')).toContainText(`Anna Kiosk${tag}A`);
    await page.locator('[data-feature="singleTask"]').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('no-running')).toBeVisible();
    await scan(page, taskCode);
    await expect(page.getByTestId('start-task')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('running-task')).toContainText(taskCode);

    // She walks away: the kiosk times out back to its page, with no dialog.
    await page.clock.fastForward('15:05');
    await expect(page).toHaveURL(/\/kiosk$/, { timeout: 15_000 });
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Ben badges in: greeted as Ben, and Single Task shows nothing of Anna's (no running task, no code).
    await page.getByTestId('kiosk-scan').focus();
    await scan(page, ben.badge);
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(page.getByTestId('greeting')).toContainText('Hello Ben');
    await expect(page.getByTestId('user-menu')).toContainText(`Ben Kiosk${tag}B`);
    await page.locator('[data-feature="singleTask"]').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('no-running')).toBeVisible();
    await expect(page.getByTestId('running-task')).toHaveCount(0);
    expect(await page.locator('body').innerText()).not.toContain(taskCode);
    await expectAxeClean(page, 'single task after a kiosk timeout 360');

    // Ben's session ends on the server (its own timeout there): his next call is refused, and the kiosk
    // page comes back without an error dialog for whoever is next.
    const bens = await humanTokenOf(page);
    const kioskToken = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('auth_settings') ?? '{}') as { state?: { authToken?: string } }).state?.authToken,
    );
    const base = { siteId: api.siteId, appId: 'floorhand', orgId: 'demo' };
    const ended = await request.post('/api/kiosk/end', {
      data: base,
      headers: { authorization: `Bearer ${kioskToken!}`, 'x-human-token': bens! },
    });
    expect(ended.status(), await ended.text()).toBe(200);
    // Single Task asks for the running task every minute.
    await page.clock.fastForward('01:05');
    await expect(page).toHaveURL(/\/kiosk$/, { timeout: 15_000 });
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByTestId('kiosk-scan')).toBeVisible();
  });

  test('a whole shift on a kiosk tablet with wedge scans only: badge in, clock in, two batch tasks, a pick, clock out; the session survives a reload', async ({
    page,
    browser,
    request,
    baseURL,
  }, testInfo) => {
    test.skip(testInfo.project.name === 'mobile', 'a tablet');
    test.setTimeout(240_000);
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await fixture(api, tag);
    const tasks = [`KT${tag}-1`, `KT${tag}-2`];
    for (const [i, taskCode] of tasks.entries())
      await api('task/upsert', {
        record: {
          taskCode,
          kind: 'wos',
          orderNumber: `WO${tag}`,
          operationNumber: String((i + 1) * 10),
          description: `Shift op ${i + 1}`,
          plannedMinutes: 20,
        },
      });
    const order = await makeOrder(api, tag);
    await page.setViewportSize({ width: 1024, height: 768 });

    // The wall clock (another device): the badge punches in.
    const clockContext = await browser.newContext({ baseURL, viewport: { width: 1024, height: 768 } });
    const clock = await clockContext.newPage();
    await useMachine(clock);
    await login(clock, 'clock');
    await expect(clock).toHaveURL(/\/timeclock$/);
    const punch = async (inAfter: boolean) => {
      await clock.getByTestId('clock-scan').click();
      await clock.keyboard.press('Shift');
      await clock.waitForLoadState('networkidle');
      await clock.keyboard.type(f.badge, { delay: 10 });
      await clock.keyboard.press('Enter');
      await expect(clock.getByTestId('clock-answer')).toHaveAttribute('data-result', 'punched');
      await expect(clock.getByTestId('clock-answer')).toHaveAttribute('data-in', String(inAfter));
    };
    await punch(true);

    // The kiosk: the badge opens the worker's session.
    await useMachine(page);
    await login(page, 'kiosk');
    await expect(page).toHaveURL(/\/kiosk$/);
    await wedge(page, f.badge, 'kiosk-scan');
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(page.getByTestId('kiosk-done')).toContainText('Kim');

    // A reload within kioskSessionTimeout keeps the worker's session (the human token in auth_settings).
    await page.reload();
    await expect(page.getByTestId('kiosk-done')).toContainText('Kim');
    await page.goto('/batchTask');
    await expect(page.getByTestId('batch-empty')).toBeVisible();
    await expect(page.getByTestId('kiosk-done')).toContainText('Kim');
    // One scan per task, back to back, each once (support.ts wedgeScan: never scanned again).
    for (const [i, code] of tasks.entries())
      await wedgeScan(page, code, () => expect(page.getByTestId('batch-entry')).toHaveCount(i + 1, SHORT));
    await page.waitForTimeout(2200);
    await docShot(page, 'kiosk-shift-batch-1024');
    await expectAxeClean(page, 'kiosk batch');
    for (const code of tasks) {
      await page.getByTestId('batch-entry').filter({ hasText: code }).getByTestId('batch-stop').click();
      await page.getByTestId('batch-stop-form-submit').click();
      await expect(page.getByTestId('batch-entry').filter({ hasText: code })).toHaveCount(0);
    }

    // A pick of the order's first line, by wedge scans: traveller, location, stock label, Enter.
    await page.goto('/stockPick');
    await expect(page.locator(`[data-number="${order.number}"]`).first()).toBeVisible();
    await wedgeScan(page, order.number, () => expect(page.getByTestId('pick-order-number')).toHaveText(order.number, SHORT));
    await expect(page.getByTestId('pick-line')).toHaveAttribute('data-line', '2');
    await page.getByTestId('pick-take').click();
    await wedgeScan(page, order.places[0], () => expect(page.getByText(`Scan the stock label in ${order.places[0]}`)).toBeVisible(SHORT));
    await wedgeScan(page, order.stock[0], () => expect(page.getByTestId('pick-qty')).toHaveValue('3', SHORT));
    await page.getByTestId('pick-qty').press('Enter');
    await expect(page.getByTestId('pick-line')).toHaveAttribute('data-line', '1');
    await docShot(page, 'kiosk-shift-pick-1024');
    await page.getByTestId('kiosk-done').click();
    await expect(page).toHaveURL(/\/kiosk$/);

    // Clock out at the wall clock.
    await clock.waitForTimeout(8500);
    await punch(false);
    await clockContext.close();

    // Everything names the worker: labor, the pick's movement, the punches.
    const day = new Date().toISOString().slice(0, 10);
    const report = (await api('labor/report', { from: day, to: day, groupBy: 'attendance', tzOffsetMinutes: 0 })) as {
      rows: Array<{ worker?: string; entries: number; attendanceSeconds?: number }>;
    };
    const mine = report.rows.find((r) => r.worker === f.userName);
    expect(mine?.entries).toBe(2);
    expect(mine?.attendanceSeconds).toBeGreaterThan(0);
    const picked = (await api('stock/get', { stockId: order.stock[0] })) as { movements: Array<{ user: string; type: string }> };
    expect(picked.movements.filter((m) => m.type !== 'receive').map((m) => m.user)).toContain(f.accountId);
    const punches = (await api('timeclock/punches/list', {
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
      accountId: f.accountId,
    })) as { punches: Array<{ kind: string }> };
    expect(punches.punches.map((p) => p.kind)).toEqual(['in', 'out']);
  });

  test("an admin's badge at a kiosk reaches no admin screen and no admin call (the rights table's kiosk ceiling)", async ({
    page,
    request,
  }, testInfo) => {
    test.skip(testInfo.project.name === 'mobile', 'a tablet');
    await useMachine(page);
    await login(page, 'kiosk');
    await expect(page).toHaveURL(/\/kiosk$/);
    await wedge(page, 'B-ADMIN', 'kiosk-scan');
    await expect(page.getByTestId('kiosk-done')).toContainText('Ada');
    // The account menu offers no administration through the kiosk.
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: 'App Settings' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Feature Access' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: 'Account Roles' })).toHaveCount(0);
    await expect(page.getByTestId('menu-punches')).toHaveCount(0);
    await page.keyboard.press('Escape');

    // Typed admin URLs: each is refused (redirected, or blocked with Access Restricted), the worker's session stays.
    for (const path of ['/userAcct', '/userRoles', '/featureAccess', '/appSettings', '/punches']) {
      await page.goto(path);
      await expect(page, path).not.toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByTestId('kiosk-done'), path).toContainText('Ada');
      await page.keyboard.press('Escape');
    }

    // The tokens the page holds: the kiosk's own and the admin's human token. Every admin call is refused.
    const stored = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('auth_settings') ?? '{}') as { state?: { authToken?: string; humanToken?: string } }).state,
    );
    expect(stored?.humanToken).toMatch(/^hum_/);
    const headers = { authorization: `Bearer ${stored!.authToken!}`, 'x-human-token': stored!.humanToken! };
    const base = { siteId: (await adminApi(request)).siteId, appId: 'floorhand', orgId: 'demo' };
    const tag = uniqueTag(testInfo);
    const refused: Array<[string, Record<string, unknown>]> = [
      [
        'admin/account/create',
        {
          account: { userName: `kx_${tag.toLowerCase()}`, firstName: 'K', surnames: 'X', email: '', badgeCode: '' },
          password: PASSWORD,
          perms: [],
        },
      ],
      ['admin/account/list', {}],
      ['admin/role/list', {}],
      ['admin/appSettings/put', { siteData: { data: {} } }],
      ['admin/audit/list', {}],
      ['account/me/changePassword', { oldPassword: PASSWORD, newPassword: 'changed-at-a-kiosk-1' }],
    ];
    for (const [path, body] of refused) {
      const res = await request.post(`/api/${path}`, { data: { ...base, ...body }, headers });
      expect(res.status(), path).toBe(403);
      expect(((await res.json()) as { err: { code: string } }).err.code, path).toBe('ERR_FORBIDDEN');
    }
    // The same tokens still do the admin's floor work.
    expect((await request.post('/api/order/list', { data: base, headers })).status()).toBe(200);
    await page.getByTestId('kiosk-done').click();
    await expect(page).toHaveURL(/\/kiosk$/);
  });
});
