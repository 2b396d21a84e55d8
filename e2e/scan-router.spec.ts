import { expect, test, type Locator } from '@playwright/test';
import { adminApi, login, makePerson, scan, uniqueTag, useMachine } from './support.ts';

// The scan router (docs/scanning.md): a keyboard-wedge scan reaches the screen whatever has the focus,
// and the focused control is left as it was (nothing typed into it, no dropdown opened, no button
// pressed). Scans are bursts with the scanner's own key times (support.ts `scan`), sent at whatever
// control the test put the focus on, as a worker's gloved hand would have left it.

test.describe('a scan reaches the screen whatever has the focus', () => {
  test('Stock Lookup: with a select, a switch, a button or the lookup field focused, a scan looks up and the control keeps its state @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const part = `SR-${tag}`;
    const location = `SR${tag}-01`;
    await api('item/save', {
      record: { partNumber: part, description: `Router widget ${tag}`, uom: 'EA', tracking: 'none', barcodes: [`BC${tag}`] },
    });
    await api('location/save', { record: { warehouse: 'MAIN', code: location, description: 'Router', type: 'bin' } });
    const { stock } = (await api('stock/receive', {
      idempotencyKey: `sr-${tag}`,
      record: { partNumber: part, warehouse: 'MAIN', location, quantity: 4 },
    })) as { stock: { stockId: string } };
    // A person of the test's own: the lookup's filters are that person's preferences.
    const userName = `sr_${tag.toLowerCase()}`;
    await makePerson(api, userName, { firstName: 'Router', surnames: tag });
    await useMachine(page);
    await login(page, userName);
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/stockLookup');
    await expect(page.getByTestId('lookup-input')).toBeVisible();
    const toggle = page.getByTestId('filters-toggle');
    if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    // A value chosen in the order type select first: "after choosing a value, the next scan went nowhere and Enter opened the dropdown".
    await page.getByTestId('filter-order-type').click();
    await page.getByRole('option', { name: 'SOS', exact: true }).click();
    await expect(page.getByTestId('filter-order-type')).toHaveValue('SOS');

    const looked = page.getByTestId('lookup-val');
    const controls: Array<{ what: string; control: Locator; state: () => Promise<unknown>; code: string }> = [
      {
        what: 'the order type select',
        control: page.getByTestId('filter-order-type'),
        state: () => page.getByTestId('filter-order-type').inputValue(),
        code: stock.stockId,
      },
      {
        what: 'the zero quantity switch',
        control: page.getByTestId('filter-zero'),
        state: () => page.getByTestId('filter-zero').isChecked(),
        code: location,
      },
      {
        what: 'the sort direction button',
        control: page.getByTestId('filter-sort-desc'),
        state: () => page.getByTestId('filter-sort-desc').getAttribute('aria-label'),
        code: part,
      },
      {
        what: 'the lookup field',
        control: page.getByTestId('lookup-input'),
        state: () => page.getByTestId('lookup-input').inputValue(),
        code: `BC${tag}`,
      },
    ];
    for (const { what, control, state, code } of controls) {
      const before = await state();
      await control.focus();
      await scan(page, code);
      await expect(looked, what).toHaveText(`Looking up: ${code}`);
      expect(await state(), what).toEqual(before);
      await expect(page.getByRole('listbox'), what).toHaveCount(0);
    }
  });

  test('a page that reads no scans: the scan is typed nowhere, said to be unread, and not looked up later by the next screen', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const userName = `su_${tag.toLowerCase()}`;
    await makePerson(api, userName, { firstName: 'Unread', surnames: tag });
    await useMachine(page);
    await login(page, userName);
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/userAcct');
    const name = page.getByTestId('my-first-name');
    await expect(name).toHaveValue('Unread');
    await name.focus();
    await scan(page, `UNREAD${tag}`);
    await expect(page.getByText(`UNREAD${tag}: scans are not read on this page`)).toBeVisible({ timeout: 10_000 });
    await expect(name).toHaveValue('Unread');
    await page.getByRole('link', { name: 'Stock Lookup' }).first().click();
    await expect(page.getByTestId('lookup-input')).toBeVisible();
    await page.waitForTimeout(500);
    await expect(page.getByTestId('lookup-val')).toHaveCount(0);
  });
});
