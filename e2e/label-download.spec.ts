import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { adminApi, login, PASSWORD, useMachine, type Api } from './support.ts';

// Without a label printer (no print agent connected to the site), "Download label" on Stock Adjust
// saves a PDF of the label: one page at the label's size, rendered on the server from the same ZPL.
// Other specs attach agents to the same site while this one runs, so this device names an agent that
// never connects (machine settings labelPrinter.agents): it has no printer whatever the site has.

const port = Number(process.env.E2E_PORT ?? 4180);
const shots = join(import.meta.dirname, '..', 'docs', 'screenshots');
let api: Api & { siteId: string };
let requests: APIRequestContext;

test.beforeAll(async () => {
  requests = await playwrightRequest.newContext({ baseURL: `http://localhost:${port}` });
  api = await adminApi(requests);
});
test.afterAll(async () => {
  await requests?.dispose();
});

test('downloads a PDF of the stock label from Stock Adjust when no printer is attached @mobile', async ({ page }, testInfo) => {
  const width = page.viewportSize()!.width;
  const tag = `${testInfo.project.name[0]!.toUpperCase()}${Date.now().toString(36).toUpperCase()}`;
  await api('item/save', {
    record: { partNumber: `PDF-${tag}`, description: `PDF widget ${tag}`, uom: 'EA', tracking: 'none', barcodes: [] },
  });
  await api('location/save', { record: { warehouse: 'MAIN', code: `PDF-${tag}`, description: 'PDF test bin', type: 'bin' } });
  const received = (await api('stock/receive', {
    idempotencyKey: `pdf-${tag}`,
    record: { partNumber: `PDF-${tag}`, warehouse: 'MAIN', location: `PDF-${tag}`, quantity: 4, conditionCode: 'NE' },
  })) as { stock: { stockId: string } };
  const userName = `pdf_${tag.toLowerCase()}`;
  await api('admin/account/create', {
    account: { userName, firstName: 'Pdf', surnames: tag, email: '', badgeCode: '' },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  });
  await useMachine(page, { labelAgents: ['no-agent-on-this-device'] });
  await login(page, userName);
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto(`/stockAdjust/${received.stock.stockId}`);
  const button = page.getByTestId('print-stock-label');
  await expect(button).toHaveText('Download label');
  await expect(button).toHaveAttribute('data-printer', '');
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe('stock-labels.pdf');
  const bytes = readFileSync((await download.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const pdf = await PDFDocument.load(bytes);
  expect(pdf.getPageCount()).toBe(1);
  // The default stock template is 4 x 2 in: 288 x 144 points.
  expect(pdf.getPage(0).getWidth()).toBeCloseTo(288, 1);
  expect(pdf.getPage(0).getHeight()).toBeCloseTo(144, 1);
  await expect(page.getByText('No label printer is attached: the label was downloaded as a PDF')).toBeVisible();

  // The chooser says there is no printer, from the keyboard.
  await page.getByTestId('print-stock-label-choose').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('no-printer')).toBeVisible();
  // The modal's opening transition done before the picture.
  await expect.poll(() => page.getByRole('dialog').evaluate((d) => getComputedStyle(d).opacity)).toBe('1');
  await page.screenshot({ path: join(shots, `label-printer-download-${width}.png`), fullPage: true });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('label-choice')).toBeHidden();
});
