import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from '@playwright/test';
import { adminApi, login, makePerson, scan, showFilters, uniqueTag, useMachine, type Api } from './support.ts';
import { makeOrder, makePicker } from './order-fixtures.ts';

// The scan router's matrix (issue 24, docs/scanning.md): on every work screen, in each of its prompt
// states, a wedge scan is sent while each focusable control of the page has the focus (links, fields,
// selects, switches, checkboxes, segmented choices, buttons, rows; the header's and the sidebar's
// too), one control after the other as a gloved hand would have left it. Each scan must do what the
// screen's table says (`took`), and nothing else: no field of the page changes (but the ones the table
// fills), the control keeps the focus, no dropdown opens, no dialog opens, no button is pressed.
// Scans are bursts with the scanner's own key times (support.ts `scan`), so a loaded machine cannot
// turn them into typing. Runs at 360x640 (@mobile); the screens whose lists are tables at a desk
// and cards on a handheld run at 1440x900 too (@both).

/** What a screen's table says a scan did, checked for the scan of `code`. */
type Took = (code: string) => Promise<void>;

interface Sweep {
  /** Fields the table itself fills (CSS): their change is the scan's meaning, not typing. */
  fills?: string;
  /** The scan moves the focus by design (it opens another page): each control is then reached again by `back`. */
  back?: () => Promise<void>;
  /** Codes are `<prefix><n>`: unknown to the app unless the screen needs a known one. */
  code?: (n: number) => string;
}

// Run in the page: the visible, enabled controls a hand can leave the focus on, in document order.
// The notifications are left out: they come and go with the scans themselves.
const CONTROLS = `(() => {
  const sel = 'a[href], button, input:not([type=hidden]):not([type=file]), select, textarea, [tabindex]:not([tabindex="-1"]), [role=combobox], [role=switch], [role=checkbox], [role=radio], [role=tab]';
  return [...document.querySelectorAll(sel)].filter((el) => {
    if (el.closest('.mantine-Notifications-root, [aria-hidden=true], [inert]')) return false;
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') return false;
    if (el.getClientRects().length === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  });
})()`;

// Run in the page: every field of the page and its value (checked state for checkboxes and radios,
// aria-checked and aria-pressed for the rest), each field by its own identity: a field that appears
// later is not compared, a field that stays must keep its value. With them, the open listboxes and
// dialogs (shown ones, as getByRole counts them) and whether the control focused before still has the
// focus. One round trip before a scan and one after: the sweep scans some 800 times in a run.
const STATE = `((fills) => {
  const w = window;
  w.mxIds ??= new WeakMap();
  w.mxNext ??= 0;
  const fields = {};
  for (const el of document.querySelectorAll('input, textarea, select, [aria-checked], [aria-pressed], [aria-expanded]')) {
    if (el.closest('.mantine-Notifications-root')) continue;
    if (fills && el.matches(fills)) continue;
    let id = w.mxIds.get(el);
    if (id === undefined) w.mxIds.set(el, (id = w.mxNext++));
    const value = el.type === 'checkbox' || el.type === 'radio' ? String(el.checked) : 'value' in el && typeof el.value === 'string' ? el.value : '';
    fields[id + ' ' + (el.getAttribute('data-testid') ?? el.tagName)] =
      value + '|' + (el.getAttribute('aria-checked') ?? '') + '|' + (el.getAttribute('aria-pressed') ?? '') + '|' + (el.getAttribute('aria-expanded') ?? '');
  }
  const shown = (role) =>
    [...document.querySelectorAll('[role=' + role + ']')].filter((el) => el.getClientRects().length > 0 && !el.closest('[aria-hidden=true]')).length;
  const focused = w.mxFocused;
  return { fields, dialogs: shown('dialog'), listboxes: shown('listbox'), focusKept: !focused || document.activeElement === focused || !focused.isConnected };
})`;

interface State {
  fields: Record<string, string>;
  dialogs: number;
  listboxes: number;
  /** The control focused for the scan still has the focus, or is gone (drawn again by the scan's answer). */
  focusKept: boolean;
}

/** Focuses control `i` (by the list above): its description (null past the last) and the page's state then. */
async function focusControl(page: Page, i: number, fills: string | undefined): Promise<{ what: string | null; state: State }> {
  return page.evaluate(
    ([list, state, i, fills]) => {
      const all = (0, eval)(list) as HTMLElement[];
      const el = all[i];
      const now = () => ((0, eval)(state) as (f: string | undefined) => State)(fills);
      if (!el) return { what: null, state: now() };
      el.focus();
      if (document.activeElement !== el) return { what: `unfocusable ${el.tagName}`, state: now() };
      (window as unknown as { mxFocused: Element }).mxFocused = el;
      const what =
        el.getAttribute('data-testid') ??
        el.getAttribute('aria-label') ??
        el.getAttribute('name') ??
        el.textContent?.trim().slice(0, 30) ??
        '';
      return {
        what: `${el.tagName.toLowerCase()}${el.getAttribute('type') ? `[${el.getAttribute('type')}]` : ''}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''} "${what}"`,
        state: now(),
      };
    },
    [CONTROLS, STATE, i, fills] as const,
  );
}

/** The page's state now (see STATE). */
async function stateOf(page: Page, fills: string | undefined): Promise<State> {
  return page.evaluate(([state, fills]) => ((0, eval)(state) as (f: string | undefined) => State)(fills), [STATE, fills] as const);
}

/**
 * The sweep: for each control of the page, the focus on it, a scan, the table's answer checked, and
 * nothing else changed. Returns how many controls were swept (a screen with none is a broken test).
 */
async function sweep(page: Page, name: string, took: Took, opts: Sweep = {}): Promise<number> {
  const code = opts.code ?? ((n) => `MX${Date.now().toString(36).toUpperCase()}${n}`);
  let swept = 0;
  for (let i = 0; ; i++) {
    const { what, state: before } = await focusControl(page, i, opts.fills);
    if (what === null) break;
    if (what.startsWith('unfocusable')) continue;
    const text = code(i);
    await scan(page, text);
    const where = `${name}, focus on ${what}, scan ${text}`;
    await took(text).catch((e: Error) => {
      throw new Error(`${where}: the scan did not do what the table says\n${e.message}`);
    });
    if (opts.back) await opts.back();
    const after = await stateOf(page, opts.fills);
    if (!opts.back) {
      // The focus stays, unless the table's answer took the control itself away (a list of recent scans drawn again).
      expect(after.focusKept, `${where}: the focus stays`).toBe(true);
      const kept = Object.fromEntries(
        Object.keys(before.fields)
          .filter((k) => k in after.fields)
          .map((k) => [k, after.fields[k]]),
      );
      expect(kept, `${where}: no field changed`).toEqual(Object.fromEntries(Object.keys(kept).map((k) => [k, before.fields[k]])));
    }
    // No dropdown and no dialog opened (as a locator's count would, given time to settle).
    if (after.listboxes !== 0 || after.dialogs !== before.dialogs) {
      await expect
        .poll(async () => {
          const now = await stateOf(page, opts.fills);
          return { listboxes: now.listboxes, dialogs: now.dialogs };
        }, `${where}: no dropdown and no dialog opened`)
        .toEqual({ listboxes: 0, dialogs: before.dialogs });
    }
    swept++;
  }
  expect(swept, `${name}: controls swept`).toBeGreaterThan(0);
  test.info().annotations.push({ type: 'swept', description: `${name}: ${swept} controls` });
  return swept;
}

/** The refusal the screen says (lib/scanning/feedback.ts refuseScan): this scan's code over what to do. */
const refusedWith =
  (page: Page, text: string): Took =>
  async (code) => {
    // One look for both: the next notice replaces this one, so two looks could straddle a replacement.
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: code }).filter({ hasText: text }).first()).toBeVisible({
      timeout: 5000,
    });
  };

/**
 * A shared device's start page swept (`kind`: its account and page), on a device of its own: each scan
 * must reach the server as that badge (`call`'s body), and the page says it was not recognised.
 */
async function sweepSharedDevice(
  d: {
    browser: Browser;
    baseURL: string | undefined;
    viewport: { width: number; height: number } | null;
    api: Api & { siteId: string };
    tag: string;
  },
  kind: 'kiosk' | 'timeclock',
  call: string,
  ready: string,
  refused: string,
): Promise<void> {
  const context = await d.browser.newContext({ baseURL: d.baseURL, viewport: d.viewport ?? undefined });
  const device = await context.newPage();
  await useMachine(device, await ownDevice(d.api, `MX${kind === 'kiosk' ? 'K' : 'T'}${d.tag}`));
  await login(
    device,
    await makePerson(d.api, `mx${kind[0]}_${d.tag.toLowerCase()}`, kind === 'kiosk' ? { kioskAcct: true } : { timeclockAcct: true }),
  );
  await expect(device).toHaveURL(new RegExp(`/${kind}$`));
  await expect(device.getByTestId(ready)).toBeVisible();
  const badges = new Set<string>();
  device.on('request', (r) => {
    if (r.url().endsWith(`/api/${call}`)) badges.add(String((r.postDataJSON() as { badge?: unknown }).badge));
  });
  await sweep(device, `${kind} start`, async (code) => {
    await expect.poll(() => badges.has(code)).toBe(true);
    await expect(device.getByTestId(refused)).toBeVisible();
  });
  await context.close();
}

/**
 * A kiosk and time clock device of the test's own: every unknown badge the sweep scans counts against
 * the device it was scanned at (10 in 15 minutes, then the device is paused), and on the demo's
 * device that would pause every other test's kiosk and clock.
 */
async function ownDevice(api: Api, id: string): Promise<{ id: string; secret: string }> {
  const { secret } = (await api('admin/workstation/update', { id, timeclock: true, kiosk: true, thisDevice: true })) as { secret: string };
  return { id, secret };
}

/** A person of the test's own, signed in on the task menu; whether the page is a handheld's (360 wide). */
async function signIn(page: Page, request: APIRequestContext, testInfo: TestInfo): Promise<boolean> {
  const api = await adminApi(request);
  await useMachine(page);
  await login(page, await makePerson(api, `mx_${uniqueTag(testInfo).toLowerCase()}`, { firstName: 'Matrix' }));
  await expect(page).toHaveURL(/\/tasks$/);
  return (page.viewportSize()?.width ?? 1440) < 600;
}

test.describe('the scan matrix: every control of every work screen, in each prompt state', () => {
  test.describe.configure({ timeout: 300_000 });

  test('the task menu, Stock Lookup and Locations @both', async ({ page, request }, testInfo) => {
    const narrow = await signIn(page, request, testInfo);

    // The task menu: a scan looks the code up in Stock Lookup.
    await expect(page.getByTestId('task-menu')).toBeVisible();
    await sweep(page, 'tasks', (code) => expect(page).toHaveURL(new RegExp(`/stockLookup\\?q=${code}$`)), {
      // Back as the browser's back button goes (no page load): the menu is drawn again.
      back: async () => {
        await page.goBack();
        await expect(page).toHaveURL(/\/tasks$/);
        await expect(page.getByTestId('task-menu')).toBeVisible();
      },
    });

    // Stock Lookup, its filters open: a scan is looked up.
    await page.goto('/stockLookup');
    await expect(page.getByTestId('lookup-input')).toBeVisible();
    if (narrow) await showFilters(page, 'filters-toggle');
    await sweep(page, 'Stock Lookup', (code) => expect(page.getByTestId('lookup-val')).toHaveText(`Looking up: ${code}`));

    // Locations: a scan is searched for (the search field is the table's to fill).
    await page.goto('/location');
    await expect(page.getByTestId('location-search')).toBeVisible();
    await sweep(page, 'Locations', (code) => expect(page.getByTestId('location-search')).toHaveValue(code), {
      fills: '[data-testid=location-search]',
    });
    // The location editor open: refused, nothing typed into the new location's fields.
    await page.getByTestId('location-new').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await sweep(page, 'Locations, the editor open', refusedWith(page, 'Save or cancel the location first'));
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  // Stock Adjust, the pick list and the pack board are tests of their own: together they took 3.5
  // minutes at 1440 px on a slow machine, close to the time a test is given.
  test('Stock Adjust @both', async ({ page, request }, testInfo) => {
    await signIn(page, request, testInfo);

    // Stock Adjust, no record open: a scan opens the record (here: none has that id).
    await page.goto('/stockAdjust');
    await expect(page.getByTestId('adjust-lookup-input')).toBeVisible();
    await sweep(page, 'Stock Adjust', (code) => expect(page).toHaveURL(new RegExp(`/stockAdjust/${code}$`)));

    // Stock Adjust, a record open and a quantity typed, not confirmed: refused, the 2 stays.
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    await api('item/save', {
      record: { partNumber: `MXA-${tag}`, description: `Matrix adjust ${tag}`, uom: 'EA', tracking: 'none', barcodes: [] },
    });
    await api('location/save', { record: { warehouse: 'MAIN', code: `MXA-${tag}`, description: 'Matrix', type: 'bin' } });
    const { stock } = (await api('stock/receive', {
      idempotencyKey: `mxa-${tag}`,
      record: { partNumber: `MXA-${tag}`, warehouse: 'MAIN', location: `MXA-${tag}`, quantity: 6 },
    })) as { stock: { stockId: string } };
    await page.goto(`/stockAdjust/${stock.stockId}`);
    await page.getByTestId('adjust-action').getByText('Adjust', { exact: true }).click();
    await page.getByTestId('adjust-qty').fill('2');
    await expect(page.getByTestId('adjust-qty')).toBeFocused();
    await sweep(page, 'Stock Adjust, a quantity typed', refusedWith(page, `Confirm or cancel the quantity of ${stock.stockId} first`));
    await expect(page.getByTestId('adjust-qty')).toHaveValue('2');
  });

  test('the pick list @both', async ({ page, request }, testInfo) => {
    const narrow = await signIn(page, request, testInfo);

    // The pick list: a scan opens the order (none has that number).
    await page.goto('/stockPick');
    await expect(page.getByTestId('pick-order-input')).toBeVisible();
    if (narrow) await showFilters(page, 'pick-filters-toggle');
    await sweep(page, 'pick list', (code) => expect(page.getByTestId('pick-not-found')).toContainText(`No order '${code}'`));
  });

  // A test of its own: the board is opened again for each control (with the pick list it took 2.9
  // minutes at 1440 px on a busy machine).
  test('the pack board @both', async ({ page, request }, testInfo) => {
    const narrow = await signIn(page, request, testInfo);

    // The pack board: a scan opens the order (another page: the board again for the next control).
    const board = async () => {
      await page.goto('/shipping');
      if (narrow) await showFilters(page, 'ship-filters-toggle');
      await expect(page.getByTestId('ship-filter-department')).toBeVisible();
    };
    await board();
    await sweep(page, 'pack board', (code) => expect(page).toHaveURL(new RegExp(`/shipping/${code}$`)), {
      // Back as the browser's back button goes (no page load): the board is drawn again.
      back: async () => {
        await page.goBack();
        await expect(page).toHaveURL(/\/shipping$/);
        if (narrow) await showFilters(page, 'ship-filters-toggle');
        await expect(page.getByTestId('ship-filter-department')).toBeVisible();
      },
    });
    // The board's sort headings are whole touch targets, on a desk too (a tablet on the packing bench).
    if (!narrow) {
      const headings = await page.locator('[data-testid^=sort-]').all();
      expect(headings.length).toBeGreaterThan(0);
      for (const h of headings)
        expect((await h.boundingBox())!.height, (await h.getAttribute('data-testid')) ?? '').toBeGreaterThanOrEqual(44);
    }
  });

  test('picking: the quantity prompt open @mobile', async ({ page, request }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeOrder(api, tag);
    await useMachine(page);
    await login(page, await makePicker(api, tag, 'Max'));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto(`/stockPick/${f.number}`);
    await expect(page.getByTestId('pick-order-number')).toHaveText(f.number);
    await page.getByTestId('pick-take').click();
    await expect(page.getByTestId('pick-holder')).toHaveText('Picking: you');
    await scan(page, f.places[0]);
    await expect(page.getByText(`Scan the stock label in ${f.places[0]}`)).toBeVisible();
    await scan(page, f.stock[0]);
    await expect(page.getByTestId('pick-qty')).toHaveValue('3');
    // The prompt has taken the focus (a moment after it shows): the sweep moves it from there.
    await expect(page.getByTestId('pick-qty')).toBeFocused();
    // Another label while the prompt is open: refused, whatever has the focus; the 3 stays.
    await sweep(page, 'pick, quantity prompt', refusedWith(page, `Confirm or cancel the quantity of ${f.stock[0]} first`));
    await expect(page.getByTestId('pick-qty')).toHaveValue('3');
  });

  test('counting: no location yet, and the quantity prompt open @mobile', async ({ page, request }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const part = `MXC-${tag}`;
    const loc = `MXC-${tag}`;
    await api('item/save', {
      record: { partNumber: part, description: `Matrix widget ${tag}`, uom: 'EA', tracking: 'none', barcodes: [] },
    });
    await api('location/save', { record: { warehouse: 'MAIN', code: loc, description: 'Matrix', type: 'bin' } });
    const { stock } = (await api('stock/receive', {
      idempotencyKey: `mxc-${tag}`,
      record: { partNumber: part, warehouse: 'MAIN', location: loc, quantity: 5 },
    })) as { stock: { stockId: string } };
    const counter = await makePerson(api, `mxc_${tag.toLowerCase()}`, { firstName: 'Matrix' });
    const { sheet } = (await api('counts/sheet/create', { warehouse: 'MAIN', locations: [loc], assignees: [counter] })) as {
      sheet: { code: string };
    };
    await useMachine(page);
    await login(page, counter);
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/physicalInventory');
    await showFilters(page, 'pi-filters-toggle');
    await page.getByTestId('pi-sheet').fill(sheet.code);
    await page.locator(`[data-code="${sheet.code}"]`).getByTestId('pi-count').click();
    await expect(page.getByTestId('pi-qty-form')).toHaveCount(0);
    const problem = page.getByTestId('pi-log-problem').first();

    // No location yet: anything but a location of the sheet is refused.
    await sweep(page, 'count, no location', (code) => expect(problem).toHaveText(`✗ ${code}: scan a location of the sheet first`));

    // At the location, the prompt open for a label (the code of a stock record, counted 1): anything else is refused.
    await scan(page, loc);
    await expect(page.getByTestId('pi-location')).toHaveText(`Location ${loc}`);
    await scan(page, stock.stockId);
    await expect(page.getByTestId('pi-qty')).toHaveValue('1');
    await expect(page.getByTestId('pi-qty')).toBeFocused();
    await sweep(
      page,
      'count, quantity prompt',
      (code) => expect(problem).toHaveText(`✗ ${code}: confirm or cancel the count of ${stock.stockId} first`),
      {
        code: (n) => `MXQ${tag}${n}`,
      },
    );
    await expect(page.getByTestId('pi-qty')).toHaveValue('1');
  });

  test('labor, the kiosk and the time clock @mobile', async ({ page, request, browser, baseURL }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    await useMachine(page);
    await login(page, await makePerson(api, `mxl_${tag.toLowerCase()}`, { firstName: 'Matrix' }));
    await expect(page).toHaveURL(/\/tasks$/);

    // Single-task labor: a scan looks the task up (none has that code).
    await page.goto('/singleTask');
    await expect(page.getByTestId('task-scan')).toBeVisible();
    await sweep(page, 'labor, single task', (code) => expect(page.getByTestId('task-unknown')).toContainText(`There is no task '${code}'`));

    // The kiosk's start page and the time clock: a scan is a badge (no badge has it), sent to the server.
    const shared = { browser, baseURL, viewport: page.viewportSize(), api, tag };
    await sweepSharedDevice(shared, 'kiosk', 'kiosk/start', 'kiosk-title', 'kiosk-error');
    await sweepSharedDevice(shared, 'timeclock', 'timeclock/punch', 'clock-prompt', 'clock-error');
  });

  test('packing with no package open and with one open, and labor with a stop form begun @mobile', async ({ page, request }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeOrder(api, tag);
    const badge = `MXB${tag}`;
    const userName = await makePerson(api, `mxp_${tag.toLowerCase()}`, { badgeCode: badge });
    // Labor is booked only while clocked in.
    await api('timeclock/punch', { badge });
    const tasks = [`MXT${tag}-1`, `MXT${tag}-2`];
    for (const [i, taskCode] of tasks.entries()) {
      await api('task/upsert', {
        record: {
          taskCode,
          kind: 'wos',
          orderNumber: `WO${tag}`,
          operationNumber: String((i + 1) * 10),
          description: `Matrix operation ${i + 1}`,
          workCentre: 'BENCH',
          plannedMinutes: 30,
        },
      });
    }
    await useMachine(page);
    await login(page, userName);
    await expect(page).toHaveURL(/\/tasks$/);

    // An order's pack screen with no package open: refused (start a package first), nothing packed.
    await page.goto(`/shipping/${f.number}`);
    await expect(page.getByTestId('pack-scan')).toBeVisible();
    await sweep(page, 'packing, no package open', refusedWith(page, 'Start a package first, then scan the stock into it.'));
    await expect(page.getByTestId('package-card')).toHaveCount(0);

    // A package open, its form filled in part (type, a dimension, carrier, service): a scan packs into
    // it whatever has the focus, the package form's fields too, and nothing is typed into them. The
    // pack call is answered here with the package as it is (the codes are no stock): the scan reached
    // the server as a pack of that code into that package, and the page stays as it was.
    const { order } = (await api('ship/order', { number: f.number })) as { order: { _id: string } };
    const { package: pkg } = (await api('package/save', {
      orderId: order._id,
      type: 'crate',
      length: 40,
      carrier: 'DHL',
      service: 'Express',
    })) as { package: { _id: string } };
    const packs = new Map<string, string>();
    await page.route('**/api/package/pack', async (route) => {
      const body = route.request().postDataJSON() as { stockId: string; packageId: string };
      packs.set(body.stockId, body.packageId);
      await route.fulfill({ json: { package: pkg } });
    });
    await page.reload();
    const card = page.getByTestId('package-card');
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('package-length')).toHaveValue('40');
    await card.getByTestId('package-width').fill('30');
    await sweep(page, 'packing, a package open', async (code) => {
      await expect.poll(() => packs.get(code)).toBe(pkg._id);
    });
    for (const [field, value] of [
      ['type', 'crate'],
      ['length', '40'],
      ['width', '30'],
      ['height', ''],
      ['carrier', 'DHL'],
      ['service', 'Express'],
      ['tracking', ''],
    ] as const) {
      await expect(card.getByTestId(`package-${field}`)).toHaveValue(value);
    }
    await page.unroute('**/api/package/pack');

    // Single task: the first task running, a quantity typed in its stop form: refused (starting another
    // task would stop it without the quantity); the 4 stays.
    await page.goto('/singleTask');
    await expect(page.getByTestId('task-scan')).toBeVisible();
    await scan(page, tasks[0]!);
    await expect(page.getByTestId('start-task')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('running-task')).toContainText(tasks[0]!);
    const qty = page.getByTestId('stop-form-qty');
    await expect(qty).toBeFocused();
    await qty.fill('4');
    await sweep(page, 'single task, its stop form begun', refusedWith(page, `Stop ${tasks[0]} first, or clear its stop form (Escape)`));
    await expect(qty).toHaveValue('4');

    // Batch (the first task joins it, still running): a task's stop form open: refused (stop it first, or cancel).
    await page.goto('/batchTask');
    await expect(page.getByTestId('batch-scan')).toBeVisible();
    await scan(page, tasks[1]!);
    const second = page.getByTestId('batch-entry').and(page.locator(`[data-task="${tasks[1]}"]`));
    await expect(second).toHaveCount(1);
    await expect(page.getByTestId('batch-entry')).toHaveCount(2);
    await second.getByTestId('batch-stop').click();
    await expect(page.getByTestId('batch-stop-form-qty')).toBeFocused();
    await sweep(page, 'batch task, a stop form open', refusedWith(page, `Stop ${tasks[1]} first, or cancel`));
    await expect(page.getByTestId('batch-entry')).toHaveCount(2);
  });
});
