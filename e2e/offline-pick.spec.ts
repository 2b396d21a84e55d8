import { expect, test, type Page } from '@playwright/test';
import { adminApi, dialog, expectAxeClean, login, scan, useMachine, uniqueTag, wedgeScan, type Api } from './support.ts';
import { makeOrder, makePicker, SHORT, type Fixture } from './order-fixtures.ts';
import { expectConnection, OwnServer, ownPort, swReady } from './offline-support.ts';

// Picking and packing offline (issue 27 item 3, docs/offline.md "Picking and packing offline"), at
// 360x640: pick confirm, skip and short, pack and unpack taken with the device offline
// (context.setOffline) and with the server stopped (an OwnServer killed and started again); each is
// queued (the header's indicator counts it), the page reloaded while still cut off (the service
// worker draws it), and once the server answers each reaches it exactly once, the outbox is empty and
// the screen shows the server's state. Scans are wedge bursts at whatever has the focus.
test.use({ serviceWorkers: 'allow' });

type PickLines = {
  lines: Array<{
    _id: string;
    lineNo: number;
    partNumber: string;
    qty: number;
    picked: number;
    short: number;
    status: string;
    skipSeq: number;
    picks: Array<{ stockId: string; qty: number }>;
  }>;
};
type ShipOrder = {
  staged: Array<{ stockId: string; packageId: string | null; partNumber: string }>;
  packages: Array<{ _id: string; packageNo: string; stockIds: string[] }>;
};

/** Picks every line of the order through the API (as the admin), and opens one package: the stock ids waiting at the staging place, the package. */
async function pickedWithPackage(api: Api, f: Fixture): Promise<{ staged: string[]; packageId: string; packageNo: string }> {
  const order = (await api('pick/order', { number: f.number })) as PickLines;
  for (const line of order.lines) {
    const i = f.parts.indexOf(line.partNumber);
    await api('pick/confirm', {
      idempotencyKey: `op-${f.number}-${line._id}`,
      lineId: line._id,
      location: f.places[i],
      scan: f.stock[i],
      qty: i === 0 ? 3 : 1,
    });
  }
  const saved = (await api('package/save', {
    orderId: ((await api('order/get', { number: f.number })) as { order: { _id: string } }).order._id,
    type: 'box',
  })) as { package: { _id: string; packageNo: string } };
  const ship = (await api('ship/order', { number: f.number })) as ShipOrder;
  return { staged: ship.staged.map((s) => s.stockId), packageId: saved.package._id, packageNo: saved.package.packageNo };
}

/** Reloads the page while the server cannot be reached: the service worker draws the app, the outbox (IndexedDB) still holds what waits. */
async function reloadCutOff(page: Page, waiting: number): Promise<void> {
  await page.reload();
  const ind = page.getByTestId('connection-indicator');
  // Offline or reconnecting (a reloaded page may not know yet that the device has no network): not online.
  await expect(ind).toHaveAttribute('data-state', /^(offline|reconnecting)$/, { timeout: 30_000 });
  await expect(ind).toHaveAttribute('data-waiting', String(waiting), { timeout: 30_000 });
}

/** The pick screen of the order with its first line shown. */
async function openPick(page: Page, number: string): Promise<void> {
  await page.goto(`/stockPick/${number}`);
  await expect(page.getByTestId('pick-order-number')).toHaveText(number);
  await expect(page.getByTestId('pick-line')).toHaveAttribute('data-line', '2');
}

test.describe('picking and packing offline', () => {
  test.describe.configure({ timeout: 240_000 });
  // At 360x640 only (one own server, one project).
  test.skip(({ isMobile }) => !isMobile, 'a handheld at 360x640');

  test('pick confirm, skip and short with the device offline, a reload, back online: each once @mobile', async ({
    page,
    context,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeOrder(api, tag);
    await useMachine(page);
    await login(page, await makePicker(api, tag, 'Olga'));
    await expect(page).toHaveURL(/\/tasks$/);
    await swReady(page);
    await openPick(page, f.number);

    await context.setOffline(true);
    await expectConnection(page, 'offline', 0);
    await expect(page.getByTestId('pick-take')).toBeDisabled();
    await expect(page.getByTestId('pick-needs-server')).toBeVisible();
    // A wrong location is still refused: the order's lines as read say the line has no stock there.
    await wedgeScan(page, f.places[1], () => expect(page.getByRole('dialog')).toBeVisible(SHORT));
    await expect(page.getByRole('dialog')).toContainText(`There is no stock of '${f.parts[0]}' to pick in '${f.places[1]}'`);
    await page.getByRole('dialog').getByRole('button').last().click();
    await expect(page.getByTestId('pick-scan')).toBeFocused();

    // Pick confirm: location, stock label, Enter on the proposed 3. Queued; the next line is shown.
    await wedgeScan(page, f.places[0], () => expect(page.getByText(`Scan the stock label in ${f.places[0]}`)).toBeVisible(SHORT));
    await wedgeScan(page, f.stock[0], () => expect(page.getByTestId('pick-qty')).toHaveValue('3', SHORT));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('pick-line')).toHaveAttribute('data-line', '1');
    await expect(page.locator('[data-testid="pick-done"][data-queued]')).toHaveCount(1);
    await expect(page.getByTestId('pick-done-what')).toHaveText(`${f.parts[0]} · 3 EA`);
    await expectConnection(page, 'offline', 1);
    await expect(page.getByTestId('pick-scan')).toBeFocused();
    await expectAxeClean(page, 'the pick screen with a queued pick');

    // Skip line 1 (the only open one: it walks last, still shown), then close it short.
    await page.getByTestId('pick-skip').click();
    await expectConnection(page, 'offline', 2);
    await expect(page.locator('[data-testid="pick-queued"][data-kind="skip"]')).toHaveCount(1);
    await page.getByTestId('pick-short').click();
    await page.getByTestId('pick-short-reason').fill('Bin empty');
    await page.getByTestId('pick-short-reason').press('Enter');
    await expect(page.getByTestId('pick-no-line')).toHaveText('Every line of this order is picked.');
    await expectConnection(page, 'offline', 3);
    await page.screenshot({ path: testInfo.outputPath('offline-pick-queued.png') });

    await reloadCutOff(page, 3);
    await context.setOffline(false);
    await expectConnection(page, 'online', 0);
    await expect(page.getByTestId('connection-indicator')).toHaveAttribute('data-refused', '0');

    // Exactly one pick of 3, one skip, one short in the database; the screen shows them as the server has them.
    const after = (await api('pick/order', { number: f.number })) as PickLines;
    const byLine = new Map(after.lines.map((l) => [l.lineNo, l]));
    expect(byLine.get(2)).toMatchObject({ picked: 3, status: 'picked' });
    expect(byLine.get(2)!.picks.map((p) => p.qty)).toEqual([3]);
    expect(byLine.get(1)).toMatchObject({ picked: 0, short: 2, status: 'short', skipSeq: 1 });
    await expect(page.getByTestId('pick-order-number')).toHaveText(f.number);
    await expect(page.getByTestId('pick-no-line')).toHaveText('Every line of this order is picked.');
    await expect(page.getByTestId('pick-done')).toHaveCount(1);
    await expect(page.locator('[data-testid="pick-done"][data-queued]')).toHaveCount(0);
    await expect(page.getByTestId('pick-queued')).toHaveCount(0);
  });

  test('pack and unpack with the device offline, a reload, back online: each once; shipping says it needs the server @mobile', async ({
    page,
    context,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeOrder(api, tag);
    const { staged, packageNo } = await pickedWithPackage(api, f);
    await useMachine(page);
    await login(page, await makePicker(api, tag, 'Otto'));
    await expect(page).toHaveURL(/\/tasks$/);
    await swReady(page);
    await page.goto(`/shipping/${f.number}`);
    await expect(page.getByTestId('ship-order-number')).toHaveText(f.number);
    await expect(page.getByTestId('staged-line')).toHaveCount(2);

    await context.setOffline(true);
    await expectConnection(page, 'offline', 0);
    // Pack both records by scans (the scan field has the focus), unpack the second.
    const card = page.locator(`[data-testid="package-card"][data-package="${packageNo}"]`);
    for (const [i, stockId] of staged.entries()) {
      await scan(page, stockId);
      await expect(card.locator(`[data-testid="staged-line"][data-stock="${stockId}"][data-queued]`)).toBeVisible();
      await expectConnection(page, 'offline', i + 1);
    }
    // Shipping needs the server: the buttons say so and are disabled.
    await expect(page.getByTestId('package-ship')).toBeDisabled();
    await expect(page.getByTestId('ship-all')).toBeDisabled();
    await expect(page.getByTestId('ship-needs-server')).toHaveText(
      'Needs the server: ship when back online. Packing and unpacking are queued.',
    );
    await expect(card.getByTestId('package-needs-server')).toHaveText('Needs the server: ship when back online');
    await expectAxeClean(page, 'the pack screen offline');
    await card.getByRole('button', { name: `Unpack ${staged[1]}` }).click();
    await expectConnection(page, 'offline', 3);
    await expect(card.getByTestId('staged-line')).toHaveCount(1);
    await page.screenshot({ path: testInfo.outputPath('offline-pack-queued.png') });

    await reloadCutOff(page, 3);
    await context.setOffline(false);
    await expectConnection(page, 'online', 0);
    await expect(page.getByTestId('connection-indicator')).toHaveAttribute('data-refused', '0');

    const after = (await api('ship/order', { number: f.number })) as ShipOrder;
    expect(after.packages.map((p) => p.stockIds)).toEqual([[staged[0]]]);
    await expect(card.getByTestId('staged-line')).toHaveCount(1);
    await expect(page.locator('[data-testid="staged-line"][data-queued]')).toHaveCount(0);
    await expect(page.getByTestId('package-ship')).toBeEnabled();
    await expect(page.getByTestId('ship-needs-server')).toHaveCount(0);
  });

  test.describe('with the server stopped', () => {
    const own = new OwnServer(ownPort(23));

    test.use({ baseURL: own.url });
    test.beforeAll(async () => {
      test.setTimeout(120_000);
      await own.start();
    });
    test.afterAll(() => own.dispose());

    test('a pick confirm and a pack taken while the server is down reach it once when it is back @mobile', async ({
      page,
      request,
    }, testInfo) => {
      const api = await adminApi(request);
      const tag = uniqueTag(testInfo);
      const toPick = await makeOrder(api, tag);
      const toPack = await makeOrder(api, `${tag}P`);
      const { staged, packageNo } = await pickedWithPackage(api, toPack);
      await useMachine(page);
      await login(page, await makePicker(api, tag, 'Sven'));
      await expect(page).toHaveURL(/\/tasks$/);
      await swReady(page);
      await openPick(page, toPick.number);

      await own.stop();
      await wedgeScan(page, toPick.places[0], () =>
        expect(page.getByText(`Scan the stock label in ${toPick.places[0]}`)).toBeVisible(SHORT),
      );
      await wedgeScan(page, toPick.stock[0], () => expect(page.getByTestId('pick-qty')).toHaveValue('3', SHORT));
      await page.keyboard.press('Enter');
      // The request fails on its way: queued with its key, no error dialog; the next line is shown.
      await expectConnection(page, 'reconnecting', 1);
      await expect(page.getByTestId('pick-line')).toHaveAttribute('data-line', '1');
      await expect(page.locator('[data-testid="pick-done"][data-queued]')).toHaveCount(1);
      await expect(dialog(page, 'Error')).toHaveCount(0);
      await reloadCutOff(page, 1);

      // The server back for a moment (the pick is replayed): the pack screen is read, the server stops again, a pack waits.
      await own.start();
      await expectConnection(page, 'online', 0);
      await page.goto(`/shipping/${toPack.number}`);
      await expect(page.getByTestId('staged-line')).toHaveCount(2);
      await own.stop();
      await scan(page, staged[0]!);
      await expectConnection(page, 'reconnecting', 1);
      const card = page.locator(`[data-testid="package-card"][data-package="${packageNo}"]`);
      await expect(card.locator(`[data-testid="staged-line"][data-stock="${staged[0]}"][data-queued]`)).toBeVisible();
      await reloadCutOff(page, 1);

      await own.start();
      await expectConnection(page, 'online', 0);
      await expect(page.getByTestId('connection-indicator')).toHaveAttribute('data-refused', '0');
      const api2 = await adminApi(request);
      const picked = (await api2('pick/order', { number: toPick.number })) as PickLines;
      expect(picked.lines.find((l) => l.lineNo === 2)!.picks.map((p) => p.qty)).toEqual([3]);
      const packed = (await api2('ship/order', { number: toPack.number })) as ShipOrder;
      expect(packed.packages.map((p) => p.stockIds)).toEqual([[staged[0]]]);
      await expect(card.getByTestId('staged-line')).toHaveCount(1);
      await expect(page.locator('[data-testid="staged-line"][data-queued]')).toHaveCount(0);
    });
  });
});
