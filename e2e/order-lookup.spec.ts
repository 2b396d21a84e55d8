import { expect, test, type Page } from '@playwright/test';
import { adminApi, login, useMachine, uniqueTag, expectAxeClean } from './support.ts';
import { makeOrder, makePicker, shot } from './order-fixtures.ts';

// Stock Lookup by order number, and its order-type filter (the spec's stockLookup filter, kept in the
// preferences as filterOrderType): the stock picked for an order, at its staging place.

async function chooseByKeyboard(page: Page, testId: string, label: string) {
  // A busy handheld may drop the first key into a closing dropdown: close it and go again.
  await expect(async () => {
    await page.keyboard.press('Escape');
    await page.getByTestId(testId).focus();
    await page.keyboard.press('ArrowDown');
    const option = page.getByRole('option', { name: label, exact: true });
    await expect(option).toBeVisible({ timeout: 2000 });
    for (let i = 0; i < 12 && (await option.getAttribute('data-combobox-selected')) === null; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(testId)).toHaveValue(label, { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
}

test('looks stock up by order number and filters by order type @mobile', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const api = await adminApi(request);
  const tag = uniqueTag(testInfo);
  const f = await makeOrder(api, tag);
  const order = (await api('pick/order', { number: f.number })) as { lines: Array<{ _id: string; lineNo: number }> };
  const line = order.lines.find((l) => l.lineNo === 2)!;
  const pick = (await api('pick/confirm', {
    idempotencyKey: `lk-${tag}`,
    lineId: line._id,
    location: f.places[0],
    scan: f.stock[0],
    qty: 3,
  })) as { pick: { stockId: string } };
  const width = (page.viewportSize()?.width ?? 1440) < 600 ? 360 : 1440;

  await useMachine(page);
  await login(page, await makePicker(api, tag, 'Lu'));
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto('/stockLookup');
  await page.getByTestId('lookup-input').fill(f.number);
  await page.getByTestId('lookup-input').press('Enter');
  await expect(page.getByTestId('lookup-match')).toHaveText('Order');
  await expect(page.getByText(pick.pick.stockId).first()).toBeVisible();
  await expect(page.getByText(f.stock[0])).toHaveCount(0);
  await expectAxeClean(page);
  await shot(page, testInfo, `stock-lookup-order-${width}`);

  // The part's stock: the picked record and what stayed in bay 01; the filter SOS keeps the picked one only.
  await page.getByTestId('lookup-input').fill(f.parts[0]);
  await page.getByTestId('lookup-input').press('Enter');
  await expect(page.getByText(f.stock[0]).first()).toBeVisible();
  await expect(page.getByText(pick.pick.stockId).first()).toBeVisible();
  if (width === 360) await page.getByTestId('filters-toggle').click();
  await chooseByKeyboard(page, 'filter-order-type', 'SOS');
  await expect(page.getByText(f.stock[0])).toHaveCount(0);
  await expect(page.getByText(pick.pick.stockId).first()).toBeVisible();
  await chooseByKeyboard(page, 'filter-order-type', 'WOS');
  await expect(page.getByTestId('lookup-none')).toBeVisible();
  // The filter is a preference: it stays after a reload; cleared, everything shows again.
  await page.reload();
  if (width === 360) await page.getByTestId('filters-toggle').click();
  await expect(page.getByTestId('filter-order-type')).toHaveValue('WOS');
  await page.getByTestId('filter-order-type').focus();
  await page.getByTestId('filter-order-type').locator('xpath=..').locator('button').first().click();
  await expect(page.getByText(f.stock[0]).first()).toBeVisible();
});
