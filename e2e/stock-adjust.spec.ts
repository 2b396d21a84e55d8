import { expect, test, type Page } from '@playwright/test';
import { adminApi, dialog, HUMAN, login, PASSWORD, scan, uniqueTag, useMachine, type Api } from './support.ts';

// Stock Adjust's scans and quantity prompts (docs/scanning.md, "What a scan means, screen by screen"):
// the chosen form's quantity field takes the focus when a record opens, a quantity typed and not
// confirmed refuses other labels, and Move's destination comes from a scan whatever has the focus.
// Each test makes its own account (the stockAdjust preferences are per account), item and stock.

async function makeUser(api: Awaited<ReturnType<typeof adminApi>>, tag: string): Promise<string> {
  const userName = `adj_${tag.toLowerCase()}`;
  await api('admin/account/create', {
    account: { userName, firstName: 'Adjust', surnames: tag, email: '', badgeCode: '' },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  });
  return userName;
}

/** An item, two locations in MAIN and stock records of the given quantities in the first. */
async function makeStock(api: Api, tag: string, quantities: number[]) {
  const f = { part: `ADJ-${tag}`, from: `ASRC-${tag}`, to: `ADST-${tag}` };
  await api('item/save', {
    record: { partNumber: f.part, description: `Adjust widget ${tag}`, uom: 'EA', tracking: 'none', barcodes: [] },
  });
  for (const code of [f.from, f.to])
    await api('location/save', { record: { warehouse: 'MAIN', code, description: `E2E ${code}`, type: 'bin' } });
  const stockIds: string[] = [];
  for (const [i, quantity] of quantities.entries()) {
    const res = (await api('stock/receive', {
      idempotencyKey: `e2e-adj-${tag}-${i}`,
      record: { partNumber: f.part, warehouse: 'MAIN', location: f.from, quantity, conditionCode: 'NE' },
    })) as { stock: { stockId: string } };
    stockIds.push(res.stock.stockId);
  }
  return { ...f, stockIds };
}

async function confirm(page: Page, title: string, button: string) {
  const d = dialog(page, title);
  await expect(d).toBeVisible();
  await d.getByRole('button', { name: button, exact: true }).click();
  await expect(d).toBeHidden();
}

/**
 * A worker puts the keypad down and picks up the scanner: a key typed by hand less than a second
 * (WEDGE_QUIET_MS) before a burst makes the burst read as the tail of a broken scan (docs/scanning.md).
 */
const HAND_TO_SCANNER_MS = 1100;

const summaryQty = (page: Page) => page.getByTestId('stock-summary').first().getByTestId('stock-summary-qty');
const summaryId = (page: Page) => page.getByTestId('stock-summary-id').first();

test.describe('stock adjust: scans and quantity prompts', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a scan opens a record with the quantity prompt: digits and Enter adjust, Set to proposes the quantity, Escape cancels @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeStock(api, tag, [10, 4]);
    const [a, b] = f.stockIds as [string, string];
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/stockAdjust');
    await expect(page.getByTestId('adjust-lookup-input')).toBeFocused();

    // The scan opens the record; Adjust's quantity (add, nothing proposed) takes the focus.
    await scan(page, a);
    await expect(summaryId(page)).toHaveText(a);
    await expect(page.getByTestId('adjust-qty')).toBeFocused();
    await expect(page.getByTestId('adjust-qty')).toHaveValue('');

    // No reason yet: Enter says so. Once one is chosen, digits and Enter open the confirmation.
    await page.keyboard.type('5', HUMAN);
    await page.keyboard.press('Enter');
    await expect(page.getByText('must be provided')).toBeVisible();
    await page.getByTestId('adjust-reason').click();
    await page.getByRole('option', { name: 'Found', exact: true }).click();
    await page.getByTestId('adjust-qty').focus();
    await page.keyboard.press('Enter');
    await confirm(page, 'Adjust quantity', 'Adjust');
    await expect(page.getByTestId('change-result')).toContainText(`${a} adjusted to 15 EA`);
    await expect(summaryQty(page)).toHaveText('15');
    await expect(page.getByTestId('adjust-qty')).toHaveValue('');

    // Set to: a prompt of its own, the record's quantity selected, so digits replace it; the last
    // reason is chosen already.
    await page.getByTestId('adjust-mode').getByText('Set to', { exact: true }).click();
    await expect(page.getByTestId('adjust-qty')).toBeFocused();
    await expect(page.getByTestId('adjust-qty')).toHaveValue('15');
    await page.keyboard.type('12', HUMAN);
    await expect(page.getByTestId('adjust-preview')).toHaveText('15 → 12 EA');
    await page.keyboard.press('Enter');
    await confirm(page, 'Adjust quantity', 'Adjust');
    await expect(summaryQty(page)).toHaveText('12');

    // Escape cancels: the typed quantity goes, the Stock id field has the focus, a scan opens a record.
    await page.getByTestId('adjust-qty').focus();
    await page.keyboard.type('3', HUMAN);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('adjust-qty')).toHaveValue('');
    await expect(page.getByTestId('adjust-lookup-input')).toBeFocused();
    await page.waitForTimeout(HAND_TO_SCANNER_MS);
    await scan(page, b);
    await expect(summaryId(page)).toHaveText(b);
    // Set to is remembered: the new record's prompt proposes its quantity.
    await expect(page.getByTestId('adjust-qty')).toBeFocused();
    await expect(page.getByTestId('adjust-qty')).toHaveValue('4');
  });

  test('with a quantity typed, a scan of another label is refused wherever the focus is, and the quantity stays @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeStock(api, tag, [10, 4, 6]);
    const [a, b, c] = f.stockIds as [string, string, string];
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto(`/stockAdjust/${a}`);
    await expect(summaryQty(page)).toHaveText('10');
    await expect(page.getByTestId('adjust-qty')).toBeFocused();
    await page.keyboard.type('7', HUMAN);
    await page.waitForTimeout(HAND_TO_SCANNER_MS);

    const refusal = page.getByText(`Confirm or cancel the quantity of ${a} first`);
    // The quantity field has the focus: the burst typed into it is taken back.
    await scan(page, b);
    await expect(refusal).toBeVisible();
    await expect(page.getByTestId('adjust-qty')).toHaveValue('7');
    await expect(page).toHaveURL(new RegExp(`/stockAdjust/${a}$`));

    // The Reason select has the focus: its Enter is swallowed (no dropdown), nothing chosen. The first
    // refusal goes first, so the one seen is this scan's.
    await expect(refusal).toBeHidden();
    await page.getByTestId('adjust-reason').focus();
    await scan(page, c);
    await expect(refusal).toBeVisible();
    await expect(page.getByRole('option', { name: 'Found', exact: true })).toHaveCount(0);
    await expect(page.getByTestId('adjust-reason')).toHaveValue('');
    await expect(page.getByTestId('adjust-qty')).toHaveValue('7');
    await expect(summaryId(page)).toHaveText(a);
    await expect(page).toHaveURL(new RegExp(`/stockAdjust/${a}$`));
  });

  test('Move waiting for its destination: a scan with the quantity focused fills the destination, the quantity stays @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const f = await makeStock(api, tag, [10]);
    const [a] = f.stockIds as [string];
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto(`/stockAdjust/${a}`);
    await expect(summaryQty(page)).toHaveText('10');

    await page.getByTestId('adjust-action').getByText('Move', { exact: true }).click();
    await expect(page.getByTestId('expect-dest')).toBeVisible();
    await expect(page.getByTestId('move-qty')).toBeFocused();
    await page.keyboard.type('3', HUMAN);
    await page.waitForTimeout(HAND_TO_SCANNER_MS);
    await scan(page, f.to);
    await expect(page.getByTestId('move-dest')).toHaveValue(f.to);
    await expect(page.getByTestId('expect-dest')).toBeHidden();
    await expect(page.getByTestId('move-qty')).toHaveValue('3');
    await expect(page.getByTestId('move-qty')).toBeFocused();

    // Enter confirms the prompt: the move's confirmation, then the move.
    await page.keyboard.press('Enter');
    await confirm(page, 'Move stock', 'Move');
    await expect(page.getByTestId('change-result')).toContainText(`3 EA moved to MAIN / ${f.to}`);
    await expect(summaryQty(page)).toHaveText('7');
  });
});
