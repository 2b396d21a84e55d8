import { readFileSync } from 'node:fs';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Agent } from '../apps/print-agent/src/agent.ts';
import { E2E_SERVER, testAgent } from './agent-fixtures.ts';
import { startTestPrinter, type TestPrinter } from '../apps/print-agent/src/test-printer.ts';
import { newAgentKey, adminApi, AUTHORISED_WS, DEMO_WORKSTATION_SECRET, login, PASSWORD, uniqueTag, type Api } from './support.ts';
import { makeOrder, makePicker, shot, SHORT } from './order-fixtures.ts';

// Labels printed by the picking and shipping screens, with a real print agent in this process and a
// loopback printer that records the ZPL (as e2e/label-printer.spec.ts): the stockPick preferences
// "print the order traveller when I take the order" (printOnAssign) and "print a pick label after each
// pick" (printOnPick); and the package's packing list (a PDF download) with its package label.

/** The agent's id, one per project: the desktop and mobile runs of this file may run at once, and with one id a label could go to the other run's printer. */
let AGENT = 'e2e-pick';

let printer: TestPrinter;
let agent: Agent;
let api: Api & { siteId: string };
let requests: APIRequestContext;

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  AGENT = `e2e-pick-${test.info().project.name}`;
  requests = await playwrightRequest.newContext({ baseURL: E2E_SERVER });
  api = await adminApi(requests);
  const agentKey = await newAgentKey(api, AGENT, 'Pick agent');
  printer = await startTestPrinter();
  agent = testAgent({
    siteId: api.siteId,
    agentKey,
    agentId: AGENT,
    name: 'Pick agent',
    printer: { id: 'zebra', name: 'Zebra (picking)', port: printer.port },
  });
  agent.start();
  await expect.poll(() => agent.connected(), { timeout: 15_000 }).toBe(true);
});

test.afterAll(async () => {
  await agent?.stop();
  await printer?.close();
  await requests?.dispose();
});

/** This device prints to our agent's printer only (another spec's agent may be connected too). */
async function useOurPrinter(page: Page) {
  await page.addInitScript(
    (s) => {
      if (!localStorage.getItem('machine_settings')) localStorage.setItem('machine_settings', JSON.stringify({ state: s, version: 0 }));
    },
    {
      workstation: { id: AUTHORISED_WS, timeclockOnly: false, kioskOnly: false, secret: DEMO_WORKSTATION_SECRET },
      labelPrinter: { agents: [AGENT], copies: 1 },
    },
  );
}

/** A scan typed into the pick screen's scan field and ended with Enter, once, then `arrived` awaited (picking.spec.ts covers the wedge). */
async function typedScan(page: Page, code: string, arrived: () => Promise<void>) {
  await page.getByTestId('pick-scan').fill(code);
  await page.getByTestId('pick-scan').press('Enter');
  await expect(arrived).toPass({ timeout: 45_000 });
}

test('taking an order prints its traveller and each pick prints a pick label (printOnAssign, printOnPick) @mobile', async ({
  page,
}, testInfo) => {
  const tag = uniqueTag(testInfo);
  const f = await makeOrder(api, tag);
  await useOurPrinter(page);
  await login(page, await makePicker(api, tag, 'Pete'));
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto(`/stockPick/${f.number}`);
  await expect(page.getByTestId('pick-order-number')).toHaveText(f.number);
  // Both preferences by the keyboard: focus, Space.
  for (const id of ['print-on-assign', 'print-on-pick']) {
    await page.getByTestId(id).focus();
    await page.keyboard.press('Space');
    await expect(page.getByTestId(id)).toBeChecked();
  }
  const before = printer.prints.length;

  // Taking the order prints its traveller.
  await page.getByTestId('pick-take').click();
  await expect(page.getByTestId('pick-holder')).toHaveText('Picking: you');
  const traveller = (await printer.waitForPrints(before + 1))[before]!;
  expect(traveller).toContain(`^FD${f.number}^FS`);
  // Its barcodes are the order number: scanned, the traveller opens the order.
  expect(traveller).toContain(`^FDQA,${f.number}^FS`);
  expect(traveller).toContain('E2E Customer');

  // A pick (3 of the 10 in bay 01: a split) prints a pick label of the picked record.
  await typedScan(page, f.places[0], () => expect(page.getByText(`Scan the stock label in ${f.places[0]}`)).toBeVisible(SHORT));
  await typedScan(page, f.stock[0], () => expect(page.getByTestId('pick-qty')).toHaveValue('3', SHORT));
  await page.getByTestId('pick-qty').press('Enter');
  await expect(page.getByTestId('pick-line')).toHaveAttribute('data-line', '1');
  const pickLabel = (await printer.waitForPrints(before + 2))[before + 1]!;
  expect(pickLabel).toContain(`^FD${f.number}  Line 2^FS`);
  expect(pickLabel).toContain(`^FD${f.parts[0]}^FS`);
  expect(pickLabel).toContain('Qty 3 EA');
  expect(pickLabel).toContain('Picked by Pete');
  await expect(page.getByText('Label printed on Zebra (picking)').first()).toBeVisible();
  await shot(page, testInfo, `picking-print-${(page.viewportSize()?.width ?? 1440) < 600 ? 360 : 1440}`);

  // With the preferences off, nothing more prints.
  await page.getByTestId('print-on-pick').uncheck();
  await page.getByTestId('print-on-assign').uncheck();
  await typedScan(page, f.places[1], () => expect(page.getByText(`Scan the stock label in ${f.places[1]}`)).toBeVisible(SHORT));
  await typedScan(page, f.stock[1], () => expect(page.getByTestId('pick-qty')).toHaveValue('1', SHORT));
  await page.getByTestId('pick-qty').press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, empty' }).click();
  await page.waitForTimeout(1500);
  expect(printer.prints.length).toBe(before + 2);
});

/**
 * A work order of two operations (sent in the wrong order: 20, then 10) and a clocked-in supervisor
 * who keeps orders, logged in on the orders admin with this order filtered: its traveller button.
 */
async function workOrderOnOrdersAdmin(page: Page, tag: string) {
  const f = await makeOrder(api, tag);
  const number = `WO-${tag}`;
  await api('order/save', {
    order: {
      type: 'wos',
      number,
      warehouse: 'MAIN',
      customer: 'Plant 2',
      dueDate: '2026-01-01',
      lines: [{ lineNo: 1, partNumber: f.parts[0], qty: 1 }],
    },
  });
  // Two operations, sent in the wrong order: the labels come in operation order.
  const weld = `TT${tag}-20`;
  const cut = `TT${tag}-10`;
  await api('task/upsert', {
    record: {
      taskCode: weld,
      kind: 'wos',
      orderNumber: number,
      operationNumber: '20',
      description: 'Weld frame',
      workCentre: 'WELD-1',
      plannedMinutes: 45,
    },
  });
  await api('task/upsert', {
    record: {
      taskCode: cut,
      kind: 'wos',
      orderNumber: number,
      operationNumber: '10',
      description: 'Cut tube',
      workCentre: 'SAW-1',
      plannedMinutes: 30,
    },
  });
  // The worker, clocked in (labor is booked only while clocked in; the demo device is a time clock an admin may run).
  const userName = `trav_${tag.toLowerCase()}`;
  await api('admin/account/create', {
    account: { userName, firstName: 'Tess', surnames: tag, email: '', badgeCode: `TV${tag}` },
    password: PASSWORD,
    // A supervisor: the orders admin (where the traveller is printed) keeps orders, an admin's job by default.
    perms: [{ siteId: api.siteId, roles: ['supervisor'], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  });
  await api('timeclock/punch', { badge: `TV${tag}` });
  await useOurPrinter(page);
  await login(page, userName);
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto('/stockPick?manage=orders');
  await page.getByTestId('orders-filter-number').fill(number);
  const row = page.locator(`[data-number="${number}"]`).first();
  await expect(row).toBeVisible();
  // The list filtered to this order (a row drawn again after the focus went to it loses the focus, and the Enter with it).
  await expect(page.locator('[data-number]:visible')).toHaveCount(1);
  return { number, cut, weld, traveller: row.getByTestId('order-traveller') };
}

/** The labels printed since `before` of this order only (the other project's worker may print to this printer too). */
const travellerLabels = (before: number, number: string) =>
  printer.prints
    .slice(before)
    .join('')
    .split('^XZ')
    .filter((l) => l.includes('^XA') && l.includes(`^FD${number}^FS`));

test("a work order's traveller prints one label per operation, its barcodes the task code; scanned on /singleTask, the code starts the task @mobile", async ({
  page,
}, testInfo) => {
  const { number, cut, weld, traveller } = await workOrderOnOrdersAdmin(page, uniqueTag(testInfo));
  const before = printer.prints.length;
  await traveller.focus();
  await expect(traveller).toBeFocused();
  await page.keyboard.press('Enter');
  // The labels of the print (one job or several): two, operation 10 then 20.
  const labels = () => travellerLabels(before, number);
  await expect.poll(() => labels().length, { timeout: 15_000 }).toBe(2);
  await page.waitForTimeout(500);
  expect(labels()).toHaveLength(2);
  const [first, second] = labels() as [string, string];
  // Both barcodes of each label (Code 128 and QR) carry the task code, not the order number.
  expect(first).toContain(`^BCN,160,Y,N,N^FD${cut}^FS`);
  expect(first).toContain(`^FDQA,${cut}^FS`);
  expect(first).toContain(`^FD${number}^FS`);
  expect(first).toContain('Operation 10  SAW-1');
  expect(first).toContain('Cut tube');
  expect(first).toContain('30 min');
  expect(second).toContain(`^FDQA,${weld}^FS`);
  expect(second).toContain('Operation 20  WELD-1');
  expect(second).not.toContain(`^FDQA,${number}^FS`);

  // What the first label's QR code holds, scanned on /singleTask, starts that task.
  const scanned = /\^FDQA,([^^]*)\^FS/.exec(first)![1]!;
  await page.goto('/singleTask');
  await expect(page.getByTestId('no-running')).toBeVisible();
  await page.getByTestId('task-scan').fill(scanned);
  await page.getByTestId('task-scan').press('Enter');
  await expect(page.getByTestId('scanned-task')).toContainText(cut);
  await expect(page.getByTestId('start-task')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('running-task')).toContainText(cut);
});

test("a package's packing list downloads as a PDF and its package label prints", async ({ page }, testInfo) => {
  const tag = uniqueTag(testInfo);
  const f = await makeOrder(api, tag);
  // Picked and packed through the API: line 2 (3 of the record in bay 01) into one package.
  const order = (await api('pick/order', { number: f.number })) as {
    order: { _id: string };
    lines: Array<{ _id: string; lineNo: number }>;
  };
  const line = order.lines.find((l) => l.lineNo === 2)!;
  const pick = (await api('pick/confirm', {
    idempotencyKey: `pl-${tag}`,
    lineId: line._id,
    location: f.places[0],
    scan: f.stock[0],
    qty: 3,
  })) as { pick: { stockId: string } };
  const pkg = (await api('package/save', {
    orderId: order.order._id,
    type: 'box',
    weight: '2.5',
    carrier: 'UPS',
    tracking: `1Z-${tag}`,
  })) as { package: { _id: string; packageNo: string } };
  await api('package/pack', { idempotencyKey: `pk-${tag}`, packageId: pkg.package._id, stockId: pick.pick.stockId });

  await useOurPrinter(page);
  await login(page, await makePicker(api, tag, 'Sam'));
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto(`/shipping/${f.number}`);
  const card = page.locator(`[data-testid=package-card][data-package="${pkg.package.packageNo}"]`);
  await expect(card).toBeVisible();
  const before = printer.prints.length;
  const button = card.getByTestId('package-packing-list');
  await button.focus();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const file = await download;
  expect(file.suggestedFilename()).toBe(`packing-list-${pkg.package.packageNo}.pdf`);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const label = (await printer.waitForPrints(before + 1))[before]!;
  expect(label).toContain(`^FD${pkg.package.packageNo}^FS`);
  expect(label).toContain(`Tracking 1Z-${tag}`);
  expect(label).toContain('E2E Customer');
  await shot(page, testInfo, 'shipping-packing-list-1440');
});

test.describe('in Spanish', () => {
  test.use({ locale: 'es-ES' });

  test("a traveller's own words print in the language of the screen that prints it (issue 29) @mobile", async ({ page }, testInfo) => {
    const { number, traveller } = await workOrderOnOrdersAdmin(page, uniqueTag(testInfo));
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    const before = printer.prints.length;
    await traveller.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => travellerLabels(before, number).length, { timeout: 15_000 }).toBe(2);
    const [first] = travellerLabels(before, number) as [string, string];
    expect(first).toContain('^FDOperación 10  SAW-1^FS');
    expect(first).toMatch(/\^FDReferencia \S* {3}Cant\. 1\^FS/);
    expect(first).toMatch(/\^FDVence \S* {3}30 min\^FS/);
    expect(first).not.toMatch(/Operation|Part number|Qty|Due /);
  });
});
