import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { adminApi, dialog, login, useMachine, uniqueTag, expectAxeClean, HUMAN } from './support.ts';
import { makeOrder, makePicker, shot } from './order-fixtures.ts';

// The orders admin of Stock Picking (/stockPick?manage=orders): create an order with two lines, edit
// its header and lines, filter the list by type, status and number, and cancel it, with the keyboard
// alone at 360x640 and 1440x900.

/** A Mantine Select chosen with the keyboard: open with ArrowDown, move to the option, Enter. */
async function chooseByKeyboard(page: Page, testId: string, label: string) {
  await page.getByTestId(testId).focus();
  await page.keyboard.press('ArrowDown');
  const option = page.getByRole('option', { name: label, exact: true });
  await expect(option).toBeVisible();
  for (let i = 0; i < 12 && (await option.getAttribute('data-combobox-selected')) === null; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(testId)).toHaveValue(label);
}

test.describe('orders admin', () => {
  test.describe.configure({ timeout: 180_000 });

  test('create, edit, filter and cancel an order with the keyboard @mobile', async ({ page, request }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeOrder(api, tag);
    const width = (page.viewportSize()?.width ?? 1440) < 600 ? 360 : 1440;
    // No printer on this device whatever agents the other specs attach: the traveller downloads as a PDF.
    await useMachine(page, { labelAgents: ['no-agent-on-this-device'] });
    await login(page, await makePicker(api, tag, 'Olga', ['supervisor']));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/stockPick');

    // From the pick list to the orders admin.
    await page.getByTestId('orders-admin-open').focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/stockPick\?manage=orders$/);
    await expect(page.getByTestId('orders-admin')).toBeVisible();

    // A new order: number, customer, two lines (Add line puts the focus in the new line), Enter saves.
    const number = `OA-${tag}`;
    await page.getByTestId('order-new').focus();
    await page.keyboard.press('Enter');
    const editor = page.getByTestId('order-editor');
    await expect(page.getByTestId('order-form')).toBeVisible();
    await expect(page.getByTestId('order-number')).toBeFocused();
    await page.keyboard.type(number, HUMAN);
    await page.getByTestId('order-customer').focus();
    await page.keyboard.type('Harbour Stores', HUMAN);
    // The ship-to address, a line each (Enter in it is a new line, not a save).
    await page.getByTestId('order-ship-to').focus();
    await page.keyboard.type('Harbour Stores\nQuay 3', HUMAN);
    await expect(page.getByTestId('order-form')).toBeVisible();
    await page.getByTestId('order-due').focus();
    await page.getByTestId('order-due').fill('2026-12-24');
    await page.getByTestId('order-line-part').first().focus();
    await page.keyboard.type(f.parts[0], HUMAN);
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('order-line-qty').first()).toBeFocused();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('4', HUMAN);
    await page.getByTestId('order-line-add').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('order-line-part').nth(1)).toBeFocused();
    await page.keyboard.type(f.parts[1], HUMAN);
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('2', HUMAN);
    await expectAxeClean(page);
    await shot(page, testInfo, `orders-admin-editor-${width}`);
    await page.keyboard.press('Enter');
    await expect(editor).toHaveCount(0);
    let saved = (await api('order/get', { number, type: 'sos' })) as {
      order: {
        _id: string;
        status: string;
        customer: string;
        shipTo: string | null;
        dueDate: string;
        lines: Array<{ lineNo: number; partNumber: string; qty: number }>;
      };
    };
    expect(saved.order).toMatchObject({
      status: 'open',
      customer: 'Harbour Stores',
      shipTo: 'Harbour Stores\nQuay 3',
      dueDate: '2026-12-24',
    });
    expect(saved.order.lines.map((l) => [l.lineNo, l.partNumber, l.qty])).toEqual([
      [1, f.parts[0], 4],
      [2, f.parts[1], 2],
    ]);

    // The list, filtered by number, type and status.
    await page.getByTestId('orders-filter-number').focus();
    await page.keyboard.type(`OA-${tag}`, HUMAN);
    const row = page.locator(`[data-number="${number}"]`).first();
    await expect(row).toBeVisible();
    await expect(page.locator(`[data-number="${f.number}"]`)).toHaveCount(0);
    await chooseByKeyboard(page, 'orders-filter-type', 'WOS');
    await expect(row).toHaveCount(0);
    await chooseByKeyboard(page, 'orders-filter-type', 'SOS');
    await chooseByKeyboard(page, 'orders-filter-status', 'open');
    await expect(row).toBeVisible();
    await expectAxeClean(page);
    await shot(page, testInfo, `orders-admin-list-${width}`);

    // The order's traveller label, from the keyboard: a PDF of one label here, without a printer.
    await row.getByTestId('order-traveller').focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('orderTraveller-labels.pdf');
    expect((await PDFDocument.load(readFileSync((await download.path())!))).getPageCount()).toBe(1);

    // Edit: line 1 to 5, line 2 removed, the priority raised.
    await row.getByTestId('order-edit').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('order-number')).toHaveValue(number);
    await expect(page.getByTestId('order-number')).toBeDisabled();
    await page.getByTestId('order-line-qty').first().focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('5', HUMAN);
    await page.getByTestId('order-line-remove').nth(1).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('order-line')).toHaveCount(1);
    await page.getByTestId('order-priority').focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('7', HUMAN);
    await page.getByTestId('order-save').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('order-editor')).toHaveCount(0);
    saved = (await api('order/get', { number, type: 'sos' })) as typeof saved;
    expect(saved.order.lines.map((l) => [l.lineNo, l.qty])).toEqual([[1, 5]]);
    expect(saved.order).toMatchObject({ priority: 7, customer: 'Harbour Stores', shipTo: 'Harbour Stores\nQuay 3' });

    // A refusal from the server (an unknown part) in the error dialog; the form keeps what was typed.
    await row.getByTestId('order-edit').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('order-line-add').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('order-line-part').nth(1)).toBeFocused();
    await page.keyboard.type('NO-SUCH-PART', HUMAN);
    await page.getByTestId('order-save').focus();
    await page.keyboard.press('Enter');
    const error = dialog(page, 'Error');
    await expect(error).toContainText("no item with part number 'NO-SUCH-PART' exists");
    await error.getByRole('button', { name: 'OK' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('order-line-part').nth(1)).toHaveValue('NO-SUCH-PART');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('order-editor')).toHaveCount(0);

    // Cancel the order: confirmed, then shown cancelled (no more edit or cancel).
    await row.getByTestId('order-cancel').focus();
    await page.keyboard.press('Enter');
    const confirm = dialog(page, 'Cancel order');
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel order' }).focus();
    await page.keyboard.press('Enter');
    // Gone from the open orders; shown with the cancelled ones, without edit or cancel.
    await expect(row).toHaveCount(0);
    expect(((await api('order/get', { number, type: 'sos' })) as typeof saved).order.status).toBe('cancelled');
    await chooseByKeyboard(page, 'orders-filter-status', 'cancelled');
    await expect(row).toContainText('cancelled');
    await expect(row.getByTestId('order-edit')).toHaveCount(0);
    await expect(row.getByTestId('order-cancel')).toHaveCount(0);

    // Back to the pick list.
    await page.getByTestId('orders-admin-back').focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/stockPick$/);
  });
});
