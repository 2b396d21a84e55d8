import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, request as playwrightRequest, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import {
  AUTHORISED_WS,
  DEMO_WORKSTATION_SECRET,
  expectAxeClean,
  fillLogin,
  PASSWORD,
  showFilters,
  snap,
  uniqueTag,
  useMachine,
  wedgeScan,
  type Api,
} from './support.ts';
import { expectConnection, OwnServer, ownPort, swReady } from './offline-support.ts';

// Counting and labor with no connection (issue 27 item 3), at 360x640 with wedge scans: (a) the device
// offline (context.setOffline), reloaded while offline, back online; (b) the server stopped (the uplink
// down, the device "online"). Each time: exactly one count line / labor entry in the database for what
// was done, the outbox empty, the screen up to date. Both run against this file's own server.

test.use({ serviceWorkers: 'allow', viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true });

/** This file's own server (the mobile project only: these are 360x640 tests, and one server per file). */
let own: OwnServer;
/** The offline reload needs the service worker (branch pwa); until the build has one, that step is left out. */
const HAS_SW = ['sw.js', 'service-worker.js'].some((f) => existsSync(fileURLToPath(new URL(`../apps/web/dist/${f}`, import.meta.url))));
const SHORT = { timeout: 5000 };

let ctx: APIRequestContext;
let admin: Api & { siteId: string };

/** The API of the own server as a person (the admin for test data, a worker to read what is theirs). */
async function apiAs(userName: string): Promise<Api & { siteId: string }> {
  const base0 = { siteId: '', appId: 'floorhand', orgId: 'demo' };
  const site = (await (await ctx.post('/api/site/resolve', { data: { ...base0, hostname: 'localhost' } })).json()) as {
    site: { siteId: string; orgId: string };
  };
  const base = { siteId: site.site.siteId, appId: 'floorhand', orgId: site.site.orgId };
  const auth = (await (
    await ctx.post('/api/auth/login', {
      data: { ...base, userName, password: PASSWORD, workstationId: AUTHORISED_WS, workstationSecret: DEMO_WORKSTATION_SECRET },
    })
  ).json()) as { authToken: string };
  const api: Api = async (path, body = {}) => {
    const res = await ctx.post(`/api/${path}`, { data: { ...base, ...body }, headers: { authorization: `Bearer ${auth.authToken}` } });
    const json = (await res.json()) as Awaited<ReturnType<Api>>;
    if (json.err) throw new Error(`${path}: ${json.err.message}`);
    return json;
  };
  return Object.assign(api, { siteId: base.siteId });
}

async function makeWorker(userName: string, badge: string): Promise<string> {
  await admin('admin/account/create', {
    account: { userName, firstName: 'Floor', surnames: userName, email: '', badgeCode: badge },
    password: PASSWORD,
    perms: [{ siteId: admin.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  });
  return userName;
}

async function signIn(page: Page, userName: string): Promise<void> {
  await useMachine(page);
  await page.goto(`${own.url}/`);
  await fillLogin(page, userName);
  await expect(page).toHaveURL(/\/tasks$/);
}

/** Reloads the page with no network (the service worker draws the app); the outbox is still there. */
async function reloadOffline(page: Page, waiting: number) {
  if (!HAS_SW) return;
  await page.reload();
  // After an offline reload the indicator may say reconnecting (the app cannot tell the two apart at start): not online, the actions still waiting.
  const ind = page.getByTestId('connection-indicator');
  await expect(ind).toHaveAttribute('data-state', /^(offline|reconnecting)$/, { timeout: 30_000 });
  await expect(ind).toHaveAttribute('data-waiting', String(waiting), { timeout: 30_000 });
}

/** A sheet of one location with one record of 5 on it, counted by `counter`. */
async function countSetup(tag: string, counter: string) {
  const part = `OF-${tag}`;
  const [loc, other] = [`OFA-${tag}`, `OFB-${tag}`];
  await admin('item/save', {
    record: { partNumber: part, description: `Offline count ${tag}`, uom: 'EA', tracking: 'none', barcodes: [] },
  });
  for (const code of [loc, other])
    await admin('location/save', { record: { warehouse: 'MAIN', code, description: `Offline ${code}`, type: 'bin' } });
  const stock = (
    (await admin('stock/receive', {
      idempotencyKey: `of-${tag}`,
      record: { partNumber: part, warehouse: 'MAIN', location: loc, quantity: 5 },
    })) as { stock: { stockId: string } }
  ).stock.stockId;
  const { sheet } = (await admin('counts/sheet/create', {
    warehouse: 'MAIN',
    locations: [loc, other],
    assignees: [counter],
    description: `Offline ${tag}`,
    blind: true,
  })) as { sheet: { _id: string; code: string } };
  return { loc, other, stock, sheet };
}

async function openSheet(page: Page, code: string) {
  await page.goto(`${own.url}/physicalInventory`);
  await showFilters(page, 'pi-filters-toggle');
  await page.getByTestId('pi-sheet').fill(code);
  const row = page.locator(`[data-code="${code}"]`);
  await expect(row).toHaveCount(1);
  await row.getByTestId('pi-count').click();
  await expect(page.getByTestId('pi-counting')).toBeVisible();
}

/** The count lines of a label on the sheet, as the counter reads them from the server. */
async function linesOf(counter: string, sheetId: string, location: string, stockId: string) {
  const res = (await (
    await apiAs(counter)
  )('counts/sheet/get', { sheetId, location })) as { lines: Array<{ stockId: string | null; myCount: number | null }> };
  return res.lines.filter((l) => l.stockId === stockId);
}

/** The worker's labor entries of a task: the running ones (labor/current) and the stopped ones of today (labor/export, admin). */
async function entriesOf(worker: string, taskCode: string) {
  const cur = (await (await apiAs(worker))('labor/current')) as { running: Array<{ taskCode: string; startedAt: string }> };
  const day = new Date().toISOString().slice(0, 10);
  const base = { siteId: admin.siteId, appId: 'floorhand', orgId: 'demo' };
  const login = (await (
    await ctx.post('/api/auth/login', {
      data: { ...base, userName: 'admin', password: PASSWORD, workstationId: AUTHORISED_WS, workstationSecret: DEMO_WORKSTATION_SECRET },
    })
  ).json()) as { authToken: string };
  const csv = await (
    await ctx.post('/api/labor/export', { data: { ...base, from: day, to: day }, headers: { authorization: `Bearer ${login.authToken}` } })
  ).text();
  const [head, ...rows] = csv.trim().split(/\r?\n/);
  const cols = head!.split(',');
  const exported = rows
    .map((r) => Object.fromEntries(r.split(',').map((v, i) => [cols[i], v.replace(/^"|"$/g, '')])))
    .filter((r) => r.taskCode === taskCode);
  return { running: cur.running.filter((e) => e.taskCode === taskCode), exported };
}

async function onSingleTask(page: Page, tag: string): Promise<{ worker: string; task: string }> {
  const badge = `OFL${tag}`;
  const worker = await makeWorker(`ofl_${tag.toLowerCase()}`, badge);
  // Labor is booked only while clocked in.
  await admin('timeclock/punch', { badge });
  const task = `TOF${tag}`;
  await admin('task/upsert', {
    record: {
      taskCode: task,
      kind: 'wos',
      orderNumber: `WO${tag}`,
      operationNumber: '10',
      description: 'Offline operation',
      workCentre: 'BENCH',
      plannedMinutes: 30,
    },
  });
  await signIn(page, worker);
  await page.goto(`${own.url}/singleTask`);
  await expect(page.getByTestId('no-running')).toBeVisible();
  return { worker, task };
}

const offline = async (context: BrowserContext, page: Page, on: boolean) => {
  if (on) await page.waitForLoadState('networkidle');
  await context.setOffline(on);
  await expectConnection(page, on ? 'offline' : 'online');
};

test.describe('offline floor: counting and labor', () => {
  test.describe.configure({ mode: 'serial', timeout: 240_000 });
  test.beforeAll(async ({ browserName: _ }, testInfo) => {
    test.skip(testInfo.project.name !== 'mobile', 'a handheld at 360x640: the mobile project runs it');
    test.setTimeout(180_000);
    own = new OwnServer(ownPort(25));
    await own.start();
    ctx = await playwrightRequest.newContext({ baseURL: own.url });
    admin = await apiAs('admin');
  });
  test.afterAll(async () => {
    await ctx?.dispose();
    await own?.dispose();
  });

  test('a count recorded offline is queued, survives a reload, and is one line once back online; a location not yet counted waits for the server @mobile', async ({
    page,
    context,
  }, testInfo) => {
    const tag = uniqueTag(testInfo);
    const counter = await makeWorker(`ofc_${tag.toLowerCase()}`, '');
    const { loc, other, stock, sheet } = await countSetup(tag, counter);
    await signIn(page, counter);
    if (HAS_SW) await swReady(page);
    await openSheet(page, sheet.code);
    // Online: the location's first scan marks it counted on the server.
    await wedgeScan(page, loc, () => expect(page.getByTestId('pi-location')).toHaveText(`Location ${loc}`, SHORT));
    // Its answer read back (no request in flight: an answer arriving after the network went would say online).
    await expect(page.getByTestId('pi-progress')).toHaveText('1 of 2 locations scanned');
    await page.waitForLoadState('networkidle');

    await offline(context, page, true);
    // Sending to review needs the server: disabled, and it says why.
    await expect(page.getByTestId('pi-submit')).toBeDisabled();
    await expect(page.getByTestId('pi-needs-server')).toBeVisible();
    // The label: its quantity is asked, and the count is queued.
    await wedgeScan(page, stock, () => expect(page.getByTestId('pi-qty-form')).toContainText(`Count of ${stock}`, SHORT));
    await page.getByTestId('pi-qty').fill('4');
    await page.keyboard.press('Enter');
    const line = page.locator(`[data-testid=pi-line][data-stock="${stock}"]`);
    await expect(line).toHaveAttribute('data-queued', 'true');
    await expect(line.getByTestId('pi-my-count')).toHaveText('4');
    await expectConnection(page, 'offline', 1);
    // A location the server has not marked counted: not counted offline (its start is the server's).
    await wedgeScan(page, other, () =>
      expect(page.getByTestId('pi-log-problem').first()).toContainText(
        `Location ${other}: scan this location again when back online`,
        SHORT,
      ),
    );
    await expect(page.getByTestId('pi-location')).toHaveText(`Location ${loc}`);
    await expectAxeClean(page, 'counting offline at 360');
    await snap(page, testInfo, 'offline-counting-queued');
    expect(await linesOf(counter, sheet._id, loc, stock)).toEqual([]);

    await reloadOffline(page, 1);
    await offline(context, page, false);
    await expectConnection(page, 'online', 0);
    expect(await linesOf(counter, sheet._id, loc, stock)).toEqual([expect.objectContaining({ stockId: stock, myCount: 4 })]);
    if (HAS_SW) await openSheet(page, sheet.code);
    if (HAS_SW) await wedgeScan(page, loc, () => expect(page.getByTestId('pi-location')).toHaveText(`Location ${loc}`, SHORT));
    // The screen from the server: the line, no longer queued.
    await expect(line.getByTestId('pi-my-count')).toHaveText('4');
    await expect(line).not.toHaveAttribute('data-queued', 'true');
    expect(await linesOf(counter, sheet._id, loc, stock)).toHaveLength(1);
  });

  test('a task started and stopped offline is one entry at the device times, with its quantity @mobile', async ({
    page,
    context,
  }, testInfo) => {
    const tag = uniqueTag(testInfo);
    const { worker, task } = await onSingleTask(page, tag);
    if (HAS_SW) await swReady(page);
    await offline(context, page, true);
    const startedAt = Date.now();
    // A task not read before: started by its code, checked at the replay.
    await wedgeScan(page, task, () => expect(page.getByTestId('scanned-task')).toContainText(task, SHORT));
    await expect(page.getByTestId('start-task')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('running-task')).toContainText(task);
    await expect(page.getByTestId('labor-queued')).toContainText('Queued');
    await expectConnection(page, 'offline', 1);
    await expectAxeClean(page, 'labor queued at 360');
    await snap(page, testInfo, 'offline-labor-queued');
    await page.waitForTimeout(3000);
    const stoppedAt = Date.now();
    await page.getByTestId('stop-form-qty').fill('3');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('no-running')).toBeVisible();
    await expectConnection(page, 'offline', 2);
    await reloadOffline(page, 2);
    await page.waitForTimeout(3000);

    await offline(context, page, false);
    await expectConnection(page, 'online', 0);
    const { running, exported } = await entriesOf(worker, task);
    expect(running).toEqual([]);
    expect(exported).toHaveLength(1);
    // Booked at the device's times, not at the replay 3 s later.
    expect(Math.abs(Date.parse(exported[0]!.startedAt!) - startedAt)).toBeLessThan(2000);
    expect(Math.abs(Date.parse(exported[0]!.stoppedAt!) - stoppedAt)).toBeLessThan(2000);
    expect(Number(exported[0]!.qtyDone)).toBe(3);
    await expect(page.getByTestId('no-running')).toBeVisible();
  });

  test('with the server stopped, a count and a labor start are queued and replayed once when it is back @mobile', async ({
    page,
    browser,
  }, testInfo) => {
    const tag = uniqueTag(testInfo);
    const counter = await makeWorker(`ofs_${tag.toLowerCase()}`, '');
    const { loc, stock, sheet } = await countSetup(tag, counter);
    await signIn(page, counter);
    await openSheet(page, sheet.code);
    await wedgeScan(page, loc, () => expect(page.getByTestId('pi-location')).toHaveText(`Location ${loc}`, SHORT));
    await own.stop();
    try {
      // The label's scan cannot reach the server: its quantity is asked, the count queued.
      await wedgeScan(page, stock, () => expect(page.getByTestId('pi-qty-form')).toContainText(`Count of ${stock}`, SHORT));
      await page.getByTestId('pi-qty').fill('2');
      await page.keyboard.press('Enter');
      const line = page.locator(`[data-testid=pi-line][data-stock="${stock}"]`);
      await expect(line).toHaveAttribute('data-queued', 'true');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByTestId('connection-indicator')).toHaveAttribute('data-waiting', '1');
    } finally {
      await own.start();
    }
    await expectConnection(page, 'online', 0);
    expect(await linesOf(counter, sheet._id, loc, stock)).toEqual([expect.objectContaining({ myCount: 2 })]);
    await expect(page.locator(`[data-testid=pi-line][data-stock="${stock}"]`)).not.toHaveAttribute('data-queued', 'true', {
      timeout: 15_000,
    });

    // Labor: the task read online, the server stops, Start is queued.
    // Another worker, on a handheld of their own.
    const device2 = await browser.newContext({
      viewport: { width: 360, height: 640 },
      hasTouch: true,
      isMobile: true,
      serviceWorkers: 'allow',
    });
    const page2 = await device2.newPage();
    const { worker, task } = await onSingleTask(page2, `${tag}L`);
    await wedgeScan(page2, task, () => expect(page2.getByTestId('scanned-task')).toContainText('Offline operation', SHORT));
    await own.stop();
    const startedAt = Date.now();
    try {
      await page2.getByTestId('start-task').click();
      await expect(page2.getByTestId('labor-queued')).toBeVisible();
      await expect(page2.getByTestId('running-task')).toContainText('Offline operation');
      await expect(page2.getByRole('dialog')).toHaveCount(0);
      await page2.waitForTimeout(3000);
    } finally {
      await own.start();
    }
    await expectConnection(page2, 'online', 0);
    const { running } = await entriesOf(worker, task);
    expect(running).toHaveLength(1);
    expect(Math.abs(Date.parse(running[0]!.startedAt) - startedAt)).toBeLessThan(2000);
    await expect(page2.getByTestId('labor-queued')).toHaveCount(0, { timeout: 15_000 });
    await expect(page2.getByTestId('running-task')).toContainText(task);
    await device2.close();
  });
});
