import { join } from 'node:path';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { login, PASSWORD, scan, useMachine, type Api } from './support.ts';

// What the picking and shipping specs share: a unique tag per test, a picker, an order with its item,
// locations and stock, wedge scans at the page, screenshots and the axe check.

/** A person with no roles (or the given ones: the demo's `supervisor` keeps orders, an admin's job by default). */
export async function makePicker(api: Api & { siteId: string }, tag: string, firstName: string, roles: string[] = []): Promise<string> {
  const userName = `pick_${firstName.toLowerCase()}_${tag.toLowerCase()}`;
  await api('admin/account/create', {
    account: { userName, firstName, surnames: tag, email: '', badgeCode: '' },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles, kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  });
  return userName;
}

/**
 * A new picker signed in on a handheld, the order opened by scanning its traveller on the pick list
 * (`/stockPick`) or the pack board (`/shipping`); answers once the order's screen shows its number.
 */
export async function openOrderAs(
  page: Page,
  api: Api & { siteId: string },
  tag: string,
  firstName: string,
  screen: '/stockPick' | '/shipping',
  number: string,
): Promise<void> {
  await useMachine(page);
  await login(page, await makePicker(api, tag, firstName));
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto(screen);
  await expect(page.locator(`[data-number="${number}"]`).first()).toBeVisible();
  await scan(page, number);
  await expect(page.getByTestId(screen === '/shipping' ? 'ship-order-number' : 'pick-order-number')).toHaveText(number);
}

export interface Fixture {
  number: string;
  parts: [string, string];
  places: [string, string];
  stock: [string, string];
}

/** Two items in two locations of MAIN (10 and 1 on hand) and an order wanting 3 and 2 of them. */
export async function makeOrder(api: Api, tag: string): Promise<Fixture> {
  const parts: [string, string] = [`PK-${tag}-A`, `PK-${tag}-B`];
  const places: [string, string] = [`PK${tag}-01-1`, `PK${tag}-02-1`];
  for (const part of parts)
    await api('item/save', {
      record: { partNumber: part, description: `Pick widget ${part}`, uom: 'EA', tracking: 'none', barcodes: [`BC${part}`] },
    });
  for (const code of places)
    await api('location/save', { record: { warehouse: 'MAIN', code, description: `Pick test ${code}`, type: 'bin' } });
  const stock: string[] = [];
  for (const [i, quantity] of [10, 1].entries()) {
    const res = (await api('stock/receive', {
      idempotencyKey: `pk-${tag}-${i}`,
      record: { partNumber: parts[i], warehouse: 'MAIN', location: places[i], quantity },
    })) as { stock: { stockId: string } };
    stock.push(res.stock.stockId);
  }
  const number = `SO-${tag}`;
  await api('order/save', {
    order: {
      type: 'sos',
      number,
      warehouse: 'MAIN',
      customer: 'E2E Customer',
      dueDate: '2026-01-01',
      lines: [
        { lineNo: 1, partNumber: parts[1], qty: 2 },
        { lineNo: 2, partNumber: parts[0], qty: 3 },
      ],
    },
  });
  return { number, parts, places, stock: stock as [string, string] };
}

/** A keyboard-wedge scan at whatever has the focus (support.ts `scan`: the scanner's own key times). */
export const SHORT = { timeout: 3000 };

export async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(testInfo.config.rootDir, '..', 'docs', 'screenshots', `${name}.png`), animations: 'disabled' });
}
