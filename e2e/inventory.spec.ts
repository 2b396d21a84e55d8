import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { adminApi, dialog, login, PASSWORD, snap, useMachine, type Api, uniqueTag, wedgeScan } from './support.ts';

// Inventory screens: Stock Lookup, Stock Adjust and Locations. Tests run in parallel on one
// database (desktop and mobile), so each makes its own item, locations and stock through the API
// and never touches another test's records.

/**
 * An account of this test's own: session preferences are per account, so tests running side by side
 * (desktop and mobile) never see each other's filters.
 */
async function makeUser(api: Awaited<ReturnType<typeof adminApi>>, tag: string, admin = false): Promise<string> {
  const userName = `inv_${tag.toLowerCase()}`;
  await api('admin/account/create', {
    account: { userName, firstName: 'Inventory', surnames: tag, email: '', badgeCode: '' },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles: admin ? ['siteAdmin'] : [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  });
  return userName;
}

interface Fixture {
  part: string;
  barcode: string;
  from: string;
  to: string;
  stockIds: string[];
}

/** An item with a barcode, two locations in MAIN and stock records of the given quantities in the first. */
async function makeStock(api: Api, tag: string, quantities: number[], uom = 'EA'): Promise<Fixture> {
  const f = { part: `E2E-${tag}`, barcode: `BC${tag}`, from: `SRC-${tag}`, to: `DST-${tag}` };
  await api('item/save', {
    record: { partNumber: f.part, description: `Test widget ${tag}`, uom, tracking: 'none', barcodes: [f.barcode] },
  });
  for (const code of [f.from, f.to])
    await api('location/save', { record: { warehouse: 'MAIN', code, description: `E2E ${code}`, type: 'bin' } });
  const stockIds: string[] = [];
  for (const [i, quantity] of quantities.entries()) {
    const res = (await api('stock/receive', {
      idempotencyKey: `e2e-${tag}-${i}`,
      record: { partNumber: f.part, warehouse: 'MAIN', location: f.from, quantity, conditionCode: 'NE' },
    })) as { stock: { stockId: string } };
    stockIds.push(res.stock.stockId);
  }
  return { ...f, stockIds };
}

/** A keyboard-wedge scan at whatever has the focus (support.ts `scan`: the scanner's own key times). */
const SHORT = { timeout: 3000 };

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function confirm(page: Page, title: string, button: string) {
  const d = dialog(page, title);
  await expect(d).toBeVisible();
  await d.getByRole('button', { name: button, exact: true }).click();
  await expect(d).toBeHidden();
}

/** The page never scrolls sideways (lists become cards on a handheld). */
async function noSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** What is on screen: lists are long and drawers are fixed to the viewport, so no full page. */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

const summaryQty = (page: Page) => page.getByTestId('stock-summary').first().getByTestId('stock-summary-qty');

test.describe('inventory', () => {
  // Long flows on a two-core machine shared by two browsers and the server.
  test.describe.configure({ timeout: 150_000 });

  test('a value too long to look up says so once, sends nothing and is not remembered @mobile', async ({ page, request }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/stockLookup');
    const lookups: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/stock/lookup')) lookups.push(r.postData() ?? '');
    });
    const long = `https://example.com/qr/${'Z'.repeat(120)}`;
    await page.getByTestId('lookup-input').fill(long);
    await page.getByTestId('lookup-input').press('Enter');
    await expect(page.getByTestId('lookup-too-long')).toHaveCount(1);
    await expect(page.getByTestId('lookup-too-long')).toContainText(`this one has ${long.length}`);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.waitForTimeout(500);
    expect(lookups).toEqual([]);
    await expect(page.getByTestId('lookup-mru').filter({ hasText: 'example.com' })).toHaveCount(0);
    // The next scan just works.
    await page.getByTestId('lookup-input').fill('A-01-1');
    await page.getByTestId('lookup-input').press('Enter');
    await expect(page.getByTestId('lookup-val')).toHaveText('Looking up: A-01-1');
    await expect(page.getByTestId('lookup-too-long')).toHaveCount(0);
  });

  test('stock lookup by typed value, wedge scan and recent lookups, with a record and its history @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeStock(api, tag, [10, 5]);
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/stockLookup');
    await expect(page.getByTestId('lookup-empty')).toBeVisible();

    // Typed into the field, then Enter.
    await page.getByTestId('lookup-input').fill(f.part);
    await page.getByTestId('lookup-input').press('Enter');
    await expect(page).toHaveURL(new RegExp(`/stockLookup\\?q=${f.part}$`));
    await expect(page.getByTestId('lookup-val')).toHaveText(`Looking up: ${f.part}`);
    const section = page.locator(`[data-testid=item-section][data-part="${f.part}"]`);
    await expect(section.getByTestId('item-qty')).toHaveText('15 EA');
    await expect(section.getByTestId('stock-row')).toHaveCount(2);
    await expect(page.getByTestId('lookup-match')).toHaveText(['Part number']);
    await noSideScroll(page);
    await snap(page, testInfo, 'stock-lookup');

    // A wedge scan of the location label at the page (no field focused).
    await wedgeScan(page, f.from, () => expect(page.getByTestId('lookup-val')).toHaveText(`Looking up: ${f.from}`, SHORT));
    await expect(page.getByTestId('lookup-match')).toHaveText(['Location']);
    await expect(section.getByTestId('stock-row')).toHaveCount(2);

    // The barcode alias finds the item too; then the recent lookups repeat the first one.
    await page.getByTestId('lookup-input').fill(f.barcode);
    await page.getByTestId('lookup-input').press('Enter');
    await expect(page.getByTestId('lookup-match')).toHaveText(['Barcode']);
    await expect(page.getByTestId('lookup-mru-chip').first()).toHaveText(f.barcode);
    await expect(page.getByTestId('lookup-mru-chip').nth(1)).toHaveText(f.from);
    await page.getByTestId('lookup-mru').getByText(f.part, { exact: true }).click();
    await expect(page.getByTestId('lookup-val')).toHaveText(`Looking up: ${f.part}`);

    // Filters: another warehouse finds nothing; the filter is kept in the preferences.
    if (testInfo.project.name === 'mobile') await page.getByTestId('filters-toggle').click();
    await pick(page, 'filter-warehouse', 'EAST – East Annex');
    await expect(page.getByTestId('lookup-none')).toBeVisible();
    await page.waitForTimeout(1500);
    await page.reload();
    await expect(page.getByTestId('lookup-none')).toBeVisible();
    if (testInfo.project.name === 'mobile') await page.getByTestId('filters-toggle').click();
    // Choosing the chosen option again clears it.
    await pick(page, 'filter-warehouse', 'EAST – East Annex');
    await expect(section.getByTestId('stock-row')).toHaveCount(2);

    // A record's detail with its movement history, and on to Stock Adjust.
    const id = f.stockIds[0]!;
    await section
      .locator(`[data-stock-id="${id}"]`)
      .getByRole('button', { name: `Details of ${id}` })
      .click();
    const drawer = page.getByTestId('stock-detail');
    await expect(drawer.getByTestId('stock-summary-id')).toHaveText(id);
    await expect(drawer.getByTestId('movement-row')).toHaveCount(1);
    await expect(drawer.getByTestId('movement-row')).toContainText('Received');
    await shot(page, testInfo, 'stock-lookup-detail');
    await drawer.getByTestId('detail-adjust').click();
    await expect(page).toHaveURL(new RegExp(`/stockAdjust/${id}$`));
    await expect(page.getByTestId('stock-summary-id')).toHaveText(id);
  });

  test('a quantity typed with a decimal comma reads as a decimal where the language writes one @mobile', async ({
    browser,
    baseURL,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    // Kilograms take decimals; an each does not (whole units only, below).
    const f = await makeStock(api, tag, [10], 'KG');
    // A Spanish browser: the screen is in Spanish (docs/languages.md), "1,5" is 1.5 and shows as "11,5".
    const context = await browser.newContext({ baseURL, locale: 'es-ES', viewport: testInfo.project.use.viewport });
    const page = await context.newPage();
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto(`/stockAdjust/${f.stockIds[0]!}`);
    await expect(summaryQty(page)).toHaveText('10');
    await page.getByTestId('adjust-action').getByText('Ajustar', { exact: true }).click();
    await page.getByTestId('adjust-mode').getByText('Añadir', { exact: true }).click();
    await page.getByTestId('adjust-qty').fill('1,5');
    await expect(page.getByTestId('adjust-preview')).toHaveText('10 → 11,5 KG');
    await context.close();
  });

  test('a fraction of an item counted in whole units (EA) is refused before anything is sent @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeStock(api, tag, [10]);
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto(`/stockAdjust/${f.stockIds[0]!}`);
    await expect(summaryQty(page)).toHaveText('10');
    await page.getByTestId('adjust-action').getByText('Adjust', { exact: true }).click();
    await page.getByTestId('adjust-mode').getByText('Add', { exact: true }).click();
    await page.getByTestId('adjust-qty').fill('1.5');
    await expect(page.getByText('must be a whole number: EA is counted in whole units')).toBeVisible();
    await page.getByTestId('adjust-qty').fill('2');
    await expect(page.getByTestId('adjust-preview')).toHaveText('10 → 12 EA');
  });

  test('stock adjust: adjust, split, move part by wedge scan and move all @mobile', async ({ page, request }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeStock(api, tag, [10]);
    const id = f.stockIds[0]!;
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    // A second screen shows the lookup; it follows the changes made on the first (realtime stockChanged).
    const watcher = await page.context().newPage();
    await watcher.goto(`/stockLookup?q=${f.part}`);
    const watched = watcher.locator(`[data-testid=item-section][data-part="${f.part}"]`).getByTestId('item-qty');
    await expect(watched).toHaveText('10 EA');
    await page.goto(`/stockAdjust/${id}`);
    await expect(summaryQty(page)).toHaveText('10');

    // Adjust: add 5 with a reason from the app settings.
    await page.getByTestId('adjust-action').getByText('Adjust', { exact: true }).click();
    await page.getByTestId('adjust-mode').getByText('Add', { exact: true }).click();
    await page.getByTestId('adjust-qty').fill('5');
    await pick(page, 'adjust-reason', 'Found');
    await expect(page.getByTestId('adjust-preview')).toHaveText('10 → 15 EA');
    await page.getByTestId('adjust-submit').click();
    await confirm(page, 'Adjust quantity', 'Adjust');
    await expect(page.getByTestId('change-result')).toContainText(`${id} adjusted to 15 EA`);
    await expect(summaryQty(page)).toHaveText('15');
    await expect(watched).toHaveText('15 EA');
    await watcher.close();
    await expect(page.getByTestId('print-label')).toBeEnabled();
    await noSideScroll(page);
    await snap(page, testInfo, 'stock-adjust-adjusted');

    // Split 4 off into a new record in the same place.
    await page.getByTestId('adjust-action').getByText('Split', { exact: true }).click();
    await page.getByTestId('split-qty').fill('4');
    await page.getByTestId('split-submit').click();
    await confirm(page, 'Split stock', 'Split');
    const result = page.getByTestId('change-result');
    await expect(result.getByTestId('stock-summary-qty')).toHaveText('4');
    await expect(summaryQty(page)).toHaveText('11');

    // Move 3 to the other location: the destination comes from a wedge scan.
    const action = (name: string) => page.getByTestId('adjust-action').getByText(name, { exact: true }).click();
    await action('Move');
    await expect(page.getByTestId('expect-dest')).toBeVisible();
    await wedgeScan(page, f.to, () => expect(page.getByTestId('move-dest')).toHaveValue(f.to, SHORT));
    await page.getByTestId('move-qty').fill('3');
    await page.getByTestId('move-submit').click();
    await confirm(page, 'Move stock', 'Move');
    await expect(result).toContainText(`3 EA moved to MAIN / ${f.to}`);
    await expect(summaryQty(page)).toHaveText('8');
    // clearDstLoc (default true) clears the destination after the move.
    await expect(page.getByTestId('move-dest')).toHaveValue('');
    await snap(page, testInfo, 'stock-adjust-moved');

    // A destination that does not exist is said before any confirmation.
    await page.getByTestId('move-dest').fill(`NOPE-${tag}`);
    await page.getByTestId('move-submit').click();
    await expect(dialog(page, 'Move stock')).toContainText(`There is no location 'NOPE-${tag}' in warehouse 'MAIN'`);
    await expect(dialog(page, 'Move stock').getByRole('button', { name: 'Move' })).toHaveCount(0);
    await dialog(page, 'Move stock').getByRole('button', { name: 'OK' }).click();
    await expect(summaryQty(page)).toHaveText('8');

    // Move all of it: quantity left blank.
    await page.getByTestId('move-dest').fill(f.to);
    await page.getByTestId('move-submit').click();
    await confirm(page, 'Move stock', 'Move');
    await expect(page.getByTestId('stock-summary-location').first()).toHaveText(`MAIN / ${f.to}`);
    await expect(page.getByTestId('movement-row')).toHaveCount(5);

    // The ledger, seen from the lookup: 8 + 3 in the destination, 4 left in the source.
    await page.goto(`/stockLookup?q=${f.part}`);
    await expect(page.locator(`[data-testid=item-section][data-part="${f.part}"]`).getByTestId('item-qty')).toHaveText('15 EA');
    await expect(page.getByTestId('location-group')).toHaveCount(2);
  });

  test('stock adjust opens a record from a location scan and remembers the print preferences @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeStock(api, tag, [2]);
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/stockAdjust');
    await expect(page.getByTestId('adjust-empty')).toBeVisible();
    // The Stock id field has the focus on arrival, at 360 px too.
    await expect(page.getByTestId('adjust-lookup-input')).toBeFocused();
    // The location holds one record: it opens.
    await page.getByTestId('adjust-lookup-input').fill(f.from);
    await page.getByTestId('adjust-lookup-input').press('Enter');
    await expect(page).toHaveURL(new RegExp(`/stockAdjust/${f.stockIds[0]}$`));
    await page.getByTestId('print-on-move').check();
    // Preferences are saved debounced; give the save time before reloading.
    await page.waitForTimeout(1500);
    await page.reload();
    await expect(page.getByTestId('print-on-move')).toBeChecked();
    await page.getByTestId('print-on-move').uncheck();

    // Move remembered: a record opened from the focused stock id field waits for its destination;
    // the Move quantity prompt takes the focus, and a wedge scan fills the destination wherever the focus is.
    const other = (await api('stock/receive', {
      idempotencyKey: `e2e-${tag}-other`,
      record: { partNumber: f.part, warehouse: 'MAIN', location: f.to, quantity: 1 },
    })) as {
      stock: { stockId: string };
    };
    await page.getByTestId('adjust-action').getByText('Move', { exact: true }).click();
    await page.getByTestId('adjust-lookup-input').fill(other.stock.stockId);
    await page.getByTestId('adjust-lookup-input').press('Enter');
    await expect(page.getByTestId('stock-summary-id')).toHaveText(other.stock.stockId);
    await expect(page.getByTestId('expect-dest')).toBeVisible();
    await expect(page.getByTestId('move-qty')).toBeFocused();
    await wedgeScan(page, f.from, () => expect(page.getByTestId('move-dest')).toHaveValue(f.from, SHORT));

    // A part with two records: each candidate names its record, part and place.
    await page.getByTestId('adjust-lookup-input').fill(f.part);
    await page.getByTestId('adjust-lookup-input').press('Enter');
    await expect(page.getByTestId('adjust-candidate')).toHaveCount(2);
    await expect(page.getByTestId('adjust-candidate').filter({ hasText: other.stock.stockId })).toContainText(`${f.part} · MAIN / ${f.to}`);
    await expect(page.getByTestId('adjust-candidate').filter({ hasText: f.stockIds[0]! })).toContainText(`${f.part} · MAIN / ${f.from}`);

    // Nothing known by that value.
    await page.getByTestId('adjust-lookup-input').fill('NO-SUCH-THING');
    await page.getByTestId('adjust-lookup-input').press('Enter');
    await expect(page.getByTestId('adjust-not-found')).toContainText('No stock record was found for it.');
  });

  test('locations: create, edit, see stock, deactivate @mobile', async ({ page, request }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeStock(api, tag, [7]);
    const code = `NEW-${tag}`;
    await useMachine(page);
    await login(page, await makeUser(api, tag, true));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/location');
    await expect(page.getByTestId('location-row').first()).toBeVisible();
    await noSideScroll(page);
    await shot(page, testInfo, 'locations');

    // Create.
    await page.getByTestId('location-new').click();
    const editor = page.getByTestId('location-editor');
    await pick(page, 'field-warehouse', 'MAIN');
    await editor.getByTestId('field-code').fill(code);
    await editor.getByTestId('field-description').fill('Returns shelf');
    await pick(page, 'field-type', 'shelf');
    await shot(page, testInfo, 'location-new');
    await editor.getByTestId('schema-form-submit').click();
    await expect(editor).toBeHidden();
    await page.getByTestId('location-search').fill(code);
    const row = page.locator(`[data-testid=location-row][data-code="${code}"]`);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Returns shelf');

    // A duplicate code is refused in the form.
    await page.getByTestId('location-new').click();
    await pick(page, 'field-warehouse', 'MAIN');
    await editor.getByTestId('field-code').fill(code);
    await editor.getByTestId('schema-form-submit').click();
    await expect(editor.getByTestId('schema-form-errors')).toContainText('already exists');
    await page.keyboard.press('Escape');
    await expect(editor).toBeHidden();

    // Edit the description.
    await row.getByTestId('location-actions').click();
    await page.getByTestId('location-edit').click();
    await expect(editor.getByTestId('field-warehouse')).toBeDisabled();
    await editor.getByTestId('field-description').fill('Returns shelf, top');
    await editor.getByTestId('schema-form-submit').click();
    await expect(editor).toBeHidden();
    await expect(row).toContainText('Returns shelf, top');

    // What a location holds: scanning its label opens it.
    const drawer = page.getByTestId('location-stock');
    await wedgeScan(page, f.from, () => expect(drawer.getByTestId('location-stock-row')).toHaveCount(1, SHORT));
    await expect(drawer.getByTestId('location-stock-row')).toContainText(f.part);
    await shot(page, testInfo, 'location-stock');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    // Deactivating one that holds stock is refused; the empty one goes.
    const held = page.locator(`[data-testid=location-row][data-code="${f.from}"]`);
    await held.getByTestId('location-actions').click();
    await page.getByTestId('location-deactivate').click();
    await dialog(page, 'Deactivate location').getByRole('button', { name: 'Deactivate' }).click();
    await expect(dialog(page, 'Error')).toContainText('holds 1 stock record');
    await dialog(page, 'Error').getByRole('button', { name: 'OK' }).click();

    await page.getByTestId('location-search').fill(code);
    await row.getByTestId('location-actions').click();
    await page.getByTestId('location-deactivate').click();
    await expect(dialog(page, 'Deactivate location')).toContainText(`location '${code}' in warehouse 'MAIN'`);
    await expect(dialog(page, 'Deactivate location')).toContainText('can be made active again');
    await expect(dialog(page, 'Deactivate location')).not.toContainText(/delete/i);
    await dialog(page, 'Deactivate location').getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByTestId('location-none')).toBeVisible();
    await page.getByTestId('location-active').uncheck();
    await expect(row).toContainText('Inactive');
    await page.getByTestId('location-active').check();
  });

  test('locations CSV: a refused import lists its rows, a good one imports, export downloads', async ({ page, request }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    await useMachine(page);
    await login(page, await makeUser(api, tag, true));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/location');
    const upload = async (csv: string) => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByTestId('csv-import').click();
      await (await chooser).setFiles({ name: 'locations.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    };
    await upload(
      `warehouse,code,description,type,active\nMAIN,CSV-${tag}-1,Fine,bin,true\nNOWHERE,CSV-${tag}-2,Bad warehouse,bin,true\nMAIN,CSV ${tag},Bad code,cupboard,true\n`,
    );
    const report = page.getByTestId('import-report');
    await expect(report.getByTestId('import-problem')).not.toHaveCount(0);
    await expect(report).toContainText('nothing was imported');
    // Two of the three data rows are bad; the count is in words that add up.
    await expect(report).toContainText(/problems in 2 of 3 data rows; nothing was imported/);
    await shot(page, testInfo, 'location-import-refused');
    await report.getByRole('button', { name: 'OK' }).click();

    await upload(`warehouse,code,description,type,active\nMAIN,CSV-${tag}-1,Fine,bin,true\nMAIN,CSV-${tag}-2,Fine too,shelf,true\n`);
    await expect(page.getByText('locations.csv: 2 rows imported (2 new, 0 updated)')).toBeVisible();
    await page.getByTestId('location-search').fill(`CSV-${tag}`);
    await expect(page.getByTestId('location-row')).toHaveCount(2);

    const download = page.waitForEvent('download');
    await page.getByTestId('csv-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('locations.csv');
    const text = await (await file.createReadStream()).toArray();
    expect(Buffer.concat(text).toString()).toContain(`MAIN,CSV-${tag}-2,Fine too,shelf,true`);
  });
});
