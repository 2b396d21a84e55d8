import { join } from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { adminApi, expectAxeClean, login, PASSWORD, uniqueTag, useMachine, wedgeScan, type Api } from './support.ts';
import { makeOrder } from './order-fixtures.ts';

// Reading offline (issue 27 item 4, docs/offline.md): what a worker is in the middle of (the open pick
// order, the running task, the last lookups) stays readable from the cache with the network gone,
// marked "Offline — as of HH:mm:ss"; a lookup never made before is kept "to check" and made when the
// network returns. The screens are loaded online, then the app moves between them with the network
// off by its own routing (no reload: the service worker that makes an offline reload possible is
// another piece). On a kiosk the cache is the worker's: the next worker never reads it.

const AS_OF = /^Offline — as of \d{2}:\d{2}:\d{2}$/;

/** Moves within the app as its own links do (history and the router), with no page load. */
async function clientGo(page: Page, href: string): Promise<void> {
  await page.evaluate((h) => {
    history.pushState(null, '', h);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, href);
  await expect(page).toHaveURL(new RegExp(`${href.replace(/[?]/g, '\\?')}$`));
}

/** A keyboard-wedge scan into a field (support.ts `wedgeScan`: one scan, never again). */
async function wedgeInto(page: Page, field: string, code: string, arrived: () => Promise<void>): Promise<void> {
  await page.getByTestId(field).click();
  await wedgeScan(page, code, arrived);
}

/** The keys of the read cache in this browser's IndexedDB. */
/** The kept copies, as text. */
const keptText = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open('floorhand-reads', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('cache');
        open.onsuccess = () => {
          const req = open.result.transaction('cache').objectStore('cache').getAll();
          req.onsuccess = () => {
            open.result.close();
            resolve(JSON.stringify(req.result));
          };
        };
      }),
  );

const cachedPersons = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('floorhand-reads', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('cache');
        open.onsuccess = () => {
          const req = open.result.transaction('cache').objectStore('cache').getAllKeys();
          req.onsuccess = () => {
            open.result.close();
            resolve(req.result.map(String));
          };
        };
      }),
  );

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.waitForTimeout(300);
  const path = join(testInfo.project.testDir, '..', 'docs', 'screenshots', `${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

async function makeWorker(
  api: Api & { siteId: string },
  tag: string,
  firstName: string,
): Promise<{ userName: string; badge: string; id: string }> {
  const userName = `off_${firstName.toLowerCase()}_${tag.toLowerCase()}`;
  const badge = `OF${firstName[0]}${tag}`;
  const created = (await api('admin/account/create', {
    account: { userName, firstName, surnames: tag, email: '', badgeCode: badge },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  })) as { account: { id: string } };
  return { userName, badge, id: created.account.id };
}

test.describe('reading offline', () => {
  test.describe.configure({ timeout: 150_000 });

  test('the open order, the running task and the last lookup stay readable offline, marked with their time; an unknown scan waits to be checked @mobile', async ({
    page,
    context,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const size = testInfo.project.name === 'mobile' ? '360' : '1440';
    const f = await makeOrder(api, tag);
    const worker = await makeWorker(api, tag, 'Olga');
    const taskCode = `T${tag}-OFF`;
    await api('task/upsert', {
      record: {
        taskCode,
        kind: 'wos',
        orderNumber: `WO${tag}`,
        operationNumber: '10',
        description: 'Offline operation',
        workCentre: 'BENCH',
        plannedMinutes: 30,
      },
    });
    await api('timeclock/punch', { badge: worker.badge });
    await useMachine(page);
    await login(page, worker.userName);
    await expect(page).toHaveURL(/\/tasks$/);

    // Online: a lookup, the order to pick, a task started.
    await page.goto(`/stockLookup?q=${f.stock[0]}`);
    // A whole page load: a busy machine may take its time.
    await expect(page.getByTestId('stock-row-adjust').first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('lookup-fetched-at')).toHaveCount(0);
    await page.goto(`/stockPick/${f.number}`);
    await expect(page.getByTestId('pick-order-number')).toHaveText(f.number);
    // Kept within moments of its answer (the next page load would otherwise start without it).
    await expect.poll(() => keptText(page), { timeout: 3000 }).toContain(f.number);
    await page.goto('/singleTask');
    await expect(page.getByTestId('no-running')).toBeVisible();
    await wedgeInto(page, 'task-scan', taskCode, () => expect(page.getByTestId('scanned-task')).toContainText(taskCode, { timeout: 3000 }));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('running-task')).toContainText(taskCode);
    await expect(page.getByTestId('labor-fetched-at')).toHaveCount(0);

    // The network goes. Everything the worker had open reads from the cache, with its time.
    await context.setOffline(true);
    await expect(page.getByTestId('labor-fetched-at')).toHaveText(AS_OF);
    await clientGo(page, `/stockPick/${f.number}`);
    await expect(page.getByTestId('pick-order-number')).toHaveText(f.number);
    await expect(page.getByTestId('fetched-at')).toHaveText(AS_OF);
    await expect(page.getByTestId('pick-scan')).toBeVisible();
    await shot(page, testInfo, `offline-pick-order-${size}`);
    await clientGo(page, '/singleTask');
    await expect(page.getByTestId('running-task')).toContainText(taskCode);
    await expect(page.getByTestId('labor-fetched-at')).toHaveText(AS_OF);
    await clientGo(page, `/stockLookup?q=${f.stock[0]}`);
    await expect(page.getByTestId('stock-row-adjust').first()).toBeVisible();
    await expect(page.getByTestId('lookup-fetched-at')).toHaveText(AS_OF);

    // A label never looked up: kept to check, no error, the shown answer stays.
    await wedgeInto(page, 'lookup-input', f.stock[1], () =>
      expect(page.getByTestId('lookup-to-check-item')).toHaveText([f.stock[1]], { timeout: 3000 }),
    );
    await expect(page.getByTestId('lookup-val')).toContainText(f.stock[0]);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // The lookup scanned before answers from the cache again.
    await wedgeInto(page, 'lookup-input', f.stock[0], () =>
      expect(page.getByTestId('lookup-fetched-at')).toHaveText(AS_OF, { timeout: 3000 }),
    );
    await expect(page.getByTestId('lookup-to-check-item')).toHaveText([f.stock[1]]);
    await expectAxeClean(page, `offline lookup ${size}`);
    await shot(page, testInfo, `offline-lookup-${size}`);

    // The network returns: the label waiting is looked up and shown, the list empties, the marks go.
    await context.setOffline(false);
    await expect(page.getByTestId('lookup-to-check')).toHaveCount(0);
    await expect(page.getByTestId('lookup-val')).toContainText(f.stock[1]);
    await expect(page.getByTestId('stock-row-adjust').first()).toBeVisible();
    await expect(page.getByTestId('lookup-fetched-at')).toHaveCount(0);
    expect(await cachedPersons(page)).toEqual([expect.stringContaining(worker.id)]);
  });

  test('with the uplink down but the device online, a lookup scanned again keeps its answer, marked, with no error dialog', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeOrder(api, tag);
    const worker = await makeWorker(api, tag, 'Uma');
    await useMachine(page);
    await login(page, worker.userName);
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto(`/stockLookup?q=${f.stock[0]}`);
    // A whole page load: a busy machine may take its time.
    await expect(page.getByTestId('stock-row-adjust').first()).toBeVisible({ timeout: 20_000 });

    // The server cannot be reached (every call fails at the network), the browser still says online.
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    // The same label again is a wish to see it fresh: the refetch fails, the answer stays, marked.
    await wedgeInto(page, 'lookup-input', f.stock[0], () =>
      expect(page.getByTestId('lookup-fetched-at')).toHaveText(AS_OF, { timeout: 5000 }),
    );
    await expect(page.getByTestId('stock-row-adjust').first()).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // A label never looked up waits to be checked.
    await wedgeInto(page, 'lookup-input', f.stock[1], () =>
      expect(page.getByTestId('lookup-to-check-item')).toHaveText([f.stock[1]], { timeout: 5000 }),
    );
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The server answers again: found by the health probe, the waiting label is looked up.
    await page.unroute('**/api/**');
    await expect(page.getByTestId('lookup-to-check')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByTestId('lookup-val')).toContainText(f.stock[1]);
    await expect(page.getByTestId('lookup-fetched-at')).toHaveCount(0);
  });

  test('the count sheet being counted keeps its locations readable offline, marked with its time', async ({
    page,
    context,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const worker = await makeWorker(api, tag, 'Cora');
    const locs = [`OFC${tag}-1`, `OFC${tag}-2`];
    for (const code of locs) await api('location/save', { record: { warehouse: 'MAIN', code, description: 'Offline count', type: 'bin' } });
    const { sheet } = (await api('counts/sheet/create', {
      warehouse: 'MAIN',
      locations: locs,
      assignees: [worker.userName],
      description: `Offline ${tag}`,
    })) as { sheet: { code: string } };
    await useMachine(page);
    await login(page, worker.userName);
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/physicalInventory');
    await page.getByTestId('pi-sheet').fill(sheet.code);
    await page.locator(`[data-code="${sheet.code}"]`).getByTestId('pi-count').click();
    await expect(page.getByTestId('pi-progress')).toHaveText('0 of 2 locations scanned');
    await expect(page.getByTestId('pi-fetched-at')).toHaveCount(0);

    await context.setOffline(true);
    await expect(page.getByTestId('pi-fetched-at')).toHaveText(AS_OF);
    await expect(page.getByTestId('pi-progress')).toHaveText('0 of 2 locations scanned');
    await expect(page.getByTestId('pi-scan')).toBeVisible();
    await expectAxeClean(page, 'counting offline');
    await context.setOffline(false);
    await expect(page.getByTestId('pi-fetched-at')).toHaveCount(0);
  });

  test('two workers on one kiosk: the second never reads what the first had cached', async ({ page, context, request }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeOrder(api, tag);
    const anna = await makeWorker(api, tag, 'Anna');
    const ben = await makeWorker(api, tag, 'Ben');
    const kiosk = `kiosk_off_${tag.toLowerCase()}`;
    await api('admin/account/create', {
      account: { userName: kiosk, firstName: 'Kiosk', surnames: tag, email: '', badgeCode: '' },
      password: PASSWORD,
      perms: [{ siteId: api.siteId, roles: [], kioskAcct: true, timeclockAcct: false, serviceAcct: false }],
    });
    await useMachine(page);
    await login(page, kiosk);
    await expect(page).toHaveURL(/\/kiosk$/);

    // Anna looks up a stock record; her answer is cached for her.
    await wedgeInto(page, 'kiosk-scan', anna.badge, () => expect(page.getByTestId('kiosk-done')).toContainText('Anna', { timeout: 3000 }));
    await page.locator('[data-feature="stockLookup"]').click();
    await wedgeInto(page, 'lookup-input', f.stock[0], () =>
      expect(page.getByTestId('stock-row-adjust').first()).toBeVisible({ timeout: 3000 }),
    );
    await expect.poll(() => cachedPersons(page)).toEqual([expect.stringContaining(anna.id)]);
    await page.getByTestId('kiosk-done').click();
    await expect(page).toHaveURL(/\/kiosk$/);
    await expect.poll(() => cachedPersons(page)).toEqual([]);

    // Ben's badge, then the network goes: Anna's lookup is not his to read.
    await wedgeInto(page, 'kiosk-scan', ben.badge, () => expect(page.getByTestId('kiosk-done')).toContainText('Ben', { timeout: 3000 }));
    await context.setOffline(true);
    await page.locator('[data-feature="stockLookup"]').click();
    await expect(page).toHaveURL(/\/stockLookup/);
    await wedgeInto(page, 'lookup-input', f.stock[0], () =>
      expect(page.getByTestId('lookup-to-check-item')).toHaveText([f.stock[0]], { timeout: 3000 }),
    );
    await expect(page.getByTestId('stock-row-adjust')).toHaveCount(0);
    await clientGo(page, `/stockLookup?q=${f.stock[0]}`);
    await expect(page.getByTestId('stock-row-adjust')).toHaveCount(0);
    await expect(page.getByTestId('lookup-fetched-at')).toHaveCount(0);
    expect((await cachedPersons(page)).filter((k) => k.includes(anna.id))).toEqual([]);

    // Back online, Ben's own lookup is made for him.
    await context.setOffline(false);
    await expect(page.getByTestId('lookup-to-check')).toHaveCount(0);
    await expect(page.getByTestId('stock-row-adjust').first()).toBeVisible();
    await expect.poll(() => cachedPersons(page)).toEqual([expect.stringContaining(ben.id)]);
  });
});
