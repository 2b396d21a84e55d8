import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { expectConnection, OwnServer, ownPort, swReady } from './offline-support.ts';
import { adminApi, dialog, login, PASSWORD, scan, seriousAxe, snap, uniqueTag, useMachine, type Api } from './support.ts';

// Stock changes offline (issue 27 item 3, docs/offline.md "Stock changes offline"): adjust, move and
// split taken while the device is offline or the server is stopped are queued in the outbox, survive
// a reload, and are sent once when the server answers again; two tabs share the outbox and send once;
// a replay the server refuses shows in the outbox with its reason and does not hold back the next.
//
// The whole file runs against a server of its own (OwnServer: the spec stops and starts it), one per
// project: desktop on offset 21, mobile on 22 (the two projects may run at once).
test.use({
  serviceWorkers: 'allow',
  viewport: { width: 360, height: 640 },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function takes from its first parameter
  baseURL: async ({}, use, testInfo) => use(`http://localhost:${ownPort(offsetOf(testInfo))}`),
});

const offsetOf = (testInfo: TestInfo): number => (testInfo.project.name === 'mobile' ? 22 : 21);

let own: OwnServer;
// eslint-disable-next-line no-empty-pattern -- as above
test.beforeAll(async ({}, testInfo) => {
  test.setTimeout(120_000);
  own = new OwnServer(ownPort(offsetOf(testInfo)));
  await own.start();
});
test.afterAll(async () => {
  await own?.dispose();
});

interface Fixture {
  api: Api & { siteId: string };
  userName: string;
  part: string;
  from: string;
  to: string;
  stockIds: string[];
}

/** A worker of their own (the Stock Adjust preferences are per account), an item, two locations and records of `quantities` in the first. */
async function setup(request: APIRequestContext, testInfo: TestInfo, quantities: number[]): Promise<Fixture> {
  const api = await adminApi(request);
  const tag = uniqueTag(testInfo);
  const userName = `offadj_${tag.toLowerCase()}`;
  await api('admin/account/create', {
    account: { userName, firstName: 'Offline', surnames: tag, email: '', badgeCode: '' },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  });
  const f = { part: `OFF-${tag}`, from: `OSRC-${tag}`, to: `ODST-${tag}` };
  await api('item/save', {
    record: { partNumber: f.part, description: `Offline widget ${tag}`, uom: 'EA', tracking: 'none', barcodes: [] },
  });
  for (const code of [f.from, f.to])
    await api('location/save', { record: { warehouse: 'MAIN', code, description: `E2E ${code}`, type: 'bin' } });
  const stockIds: string[] = [];
  for (const [i, quantity] of quantities.entries()) {
    const res = (await api('stock/receive', {
      idempotencyKey: `e2e-off-${tag}-${i}`,
      record: { partNumber: f.part, warehouse: 'MAIN', location: f.from, quantity, conditionCode: 'NE' },
    })) as { stock: { stockId: string } };
    stockIds.push(res.stock.stockId);
  }
  return { api, userName, ...f, stockIds };
}

interface Movement {
  type: string;
  qtyDelta: number;
  toLocation: string | null;
  relatedStockId: string | null;
}

/** The record as the server has it now, with its movement history. */
const stockGet = (api: Api, stockId: string) =>
  api('stock/get', { stockId }) as Promise<{ stock: { quantity: number; location: string }; movements: Movement[] }>;

const summaryQty = (page: Page) => page.getByTestId('stock-summary').first().getByTestId('stock-summary-qty');
const summaryId = (page: Page) => page.getByTestId('stock-summary-id').first();

async function confirm(page: Page, title: string, button: string): Promise<void> {
  const d = dialog(page, title);
  await expect(d).toBeVisible();
  await d.getByRole('button', { name: button, exact: true }).click();
  await expect(d).toBeHidden();
}

/** Signs the worker in and opens the record, online; the action is chosen while the server answers (a preference is saved). */
async function openOnline(page: Page, f: Fixture, stockId: string, action: 'Adjust' | 'Move' | 'Split'): Promise<void> {
  await useMachine(page);
  await login(page, f.userName);
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto(`/stockAdjust/${stockId}`);
  await expect(summaryId(page)).toHaveText(stockId);
  if (action !== 'Adjust') await page.getByTestId('adjust-action').getByText(action, { exact: true }).click();
  await swReady(page);
}

/** The three changes: how the worker makes each, and what the server must hold once it was sent (once). */
const CHANGES = {
  adjust: {
    action: 'Adjust' as const,
    async make(page: Page) {
      await page.getByTestId('adjust-qty').fill('5');
      await page.getByTestId('adjust-reason').click();
      await page.getByRole('option', { name: 'Found', exact: true }).click();
      await page.getByTestId('adjust-submit').click();
      await confirm(page, 'Adjust quantity', 'Adjust');
    },
    async check(page: Page, f: Fixture) {
      const { stock, movements } = await stockGet(f.api, f.stockIds[0]!);
      expect(movements.filter((m) => m.type === 'adjust')).toHaveLength(1);
      expect(stock.quantity).toBe(15);
      await expect(summaryQty(page)).toHaveText('15');
    },
  },
  move: {
    action: 'Move' as const,
    async make(page: Page, f: Fixture) {
      await page.getByTestId('move-dest').fill(f.to);
      await page.getByTestId('move-submit').click();
      await confirm(page, 'Move stock', 'Move');
    },
    async check(page: Page, f: Fixture) {
      const { stock, movements } = await stockGet(f.api, f.stockIds[0]!);
      expect(movements.filter((m) => m.type === 'move')).toHaveLength(1);
      expect(stock.location).toBe(f.to);
      await expect(page.getByTestId('stock-summary').first()).toContainText(f.to);
    },
  },
  split: {
    action: 'Split' as const,
    async make(page: Page) {
      await page.getByTestId('split-qty').fill('4');
      await page.getByTestId('split-submit').click();
      await confirm(page, 'Split stock', 'Split');
    },
    async check(page: Page, f: Fixture) {
      const { stock, movements } = await stockGet(f.api, f.stockIds[0]!);
      const splits = movements.filter((m) => m.type === 'split');
      expect(splits).toHaveLength(1);
      expect(stock.quantity).toBe(6);
      expect((await stockGet(f.api, splits[0]!.relatedStockId!)).stock.quantity).toBe(4);
      await expect(summaryQty(page)).toHaveText('6');
    },
  },
};

/** The change is queued: the record's panel says so, the header counts it. */
async function expectQueued(page: Page, state: 'offline' | 'reconnecting'): Promise<void> {
  await expect(page.getByTestId('adjust-queued')).toBeVisible();
  await expectConnection(page, state, 1);
}

test.describe('stock changes offline', () => {
  test.describe.configure({ timeout: 120_000 });

  for (const [kind, change] of Object.entries(CHANGES)) {
    test(`${kind} with the device offline: queued, kept across an offline reload, sent once when it is back @mobile`, async ({
      page,
      context,
      request,
    }, testInfo) => {
      const f = await setup(request, testInfo, [10]);
      await openOnline(page, f, f.stockIds[0]!, change.action);

      await context.setOffline(true);
      await expectConnection(page, 'offline');
      await change.make(page, f);
      await expectQueued(page, 'offline');

      await page.reload();
      await expectConnection(page, 'offline', 1);

      await context.setOffline(false);
      await expectConnection(page, 'online', 0);
      await change.check(page, f);
      await expect(page.getByTestId('adjust-queued')).toBeHidden();
    });

    test(`${kind} with the server stopped: queued, kept across a reload the service worker draws, sent once when it is back @mobile`, async ({
      page,
      request,
    }, testInfo) => {
      const f = await setup(request, testInfo, [10]);
      await openOnline(page, f, f.stockIds[0]!, change.action);

      await own.stop();
      try {
        await change.make(page, f);
        await expectQueued(page, 'reconnecting');
        await expect(page.getByRole('dialog')).toBeHidden();

        await page.reload();
        await expectConnection(page, 'reconnecting', 1);
      } finally {
        await own.start();
      }
      await expectConnection(page, 'online', 0);
      await change.check(page, f);
    });
  }

  test('two tabs share the outbox: a change queued in one is sent once when the device is back @mobile', async ({
    page,
    context,
    request,
  }, testInfo) => {
    const f = await setup(request, testInfo, [10]);
    await openOnline(page, f, f.stockIds[0]!, 'Adjust');
    const other = await context.newPage();
    await other.goto(`/stockAdjust/${f.stockIds[0]!}`);
    await expect(summaryId(other)).toHaveText(f.stockIds[0]!);

    await context.setOffline(true);
    await CHANGES.adjust.make(page);
    await expectQueued(page, 'offline');
    // The other tab sees the queued change of the same record, and takes no second change of it.
    await expectConnection(other, 'offline', 1);
    await expect(other.getByTestId('adjust-queued')).toBeVisible();

    await context.setOffline(false);
    await expectConnection(page, 'online', 0);
    await expectConnection(other, 'online', 0);
    await CHANGES.adjust.check(page, f);
    await expect(summaryQty(other)).toHaveText('15');
  });

  test('a replay the server refuses shows in the outbox with its reason and does not hold back the change queued after it @mobile', async ({
    page,
    context,
    request,
  }, testInfo) => {
    const f = await setup(request, testInfo, [10, 7]);
    const [a, b] = f.stockIds as [string, string];
    const nowhere = `NOPE-${f.to}`;
    // Both records are read once online (the screen reads them from its cache offline).
    await openOnline(page, f, b, 'Adjust');
    await scan(page, a);
    await expect(summaryId(page)).toHaveText(a);
    await page.getByTestId('adjust-action').getByText('Move', { exact: true }).click();

    await context.setOffline(true);
    await expectConnection(page, 'offline');
    // Offline, the destination cannot be looked up: it is taken as scanned, for the server to judge.
    await page.getByTestId('move-dest').fill(nowhere);
    await page.getByTestId('move-submit').click();
    await confirm(page, 'Move stock', 'Move');
    await expectQueued(page, 'offline');

    // A second change of the same record waits for the first: the panel says so instead of the forms.
    await expect(page.getByTestId('move-form')).toBeHidden();
    await expect(page.getByTestId('adjust-queued')).toContainText(`Move ${a} to MAIN / ${nowhere}`);
    await snap(page, testInfo, 'stock-adjust-queued');
    expect(await seriousAxe(page)).toEqual([]);

    // The next record goes on being worked.
    await scan(page, b);
    await expect(summaryId(page)).toHaveText(b);
    await page.getByTestId('adjust-action').getByText('Adjust', { exact: true }).click();
    await page.getByTestId('adjust-qty').fill('3');
    await page.getByTestId('adjust-reason').click();
    await page.getByRole('option', { name: 'Found', exact: true }).click();
    await page.getByTestId('adjust-submit').click();
    await confirm(page, 'Adjust quantity', 'Adjust');
    await expectConnection(page, 'offline', 2);

    await context.setOffline(false);
    await expectConnection(page, 'online', 0);
    const indicator = page.getByTestId('connection-indicator');
    await expect(indicator).toHaveAttribute('data-refused', '1');
    // The refused move changed nothing; the adjustment behind it was sent.
    const afterA = await stockGet(f.api, a);
    expect(afterA.stock.location).toBe(f.from);
    expect(afterA.movements.filter((m) => m.type === 'move')).toHaveLength(0);
    const afterB = await stockGet(f.api, b);
    expect(afterB.movements.filter((m) => m.type === 'adjust')).toHaveLength(1);
    expect(afterB.stock.quantity).toBe(10);
    await expect(summaryQty(page)).toHaveText('10');

    await indicator.getByRole('button').click();
    const refused = page.getByTestId('outbox-drawer').getByTestId('outbox-item');
    await expect(refused).toHaveCount(1);
    await expect(refused).toHaveAttribute('data-state', 'refused');
    await expect(refused).toContainText(`Move ${a} to MAIN / ${nowhere}`);
    await expect(refused).toContainText(`No location '${nowhere}' exists in warehouse 'MAIN'`);
  });
});
