import { join } from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import type { Agent } from '../apps/print-agent/src/agent.ts';
import { E2E_SERVER, testAgent } from './agent-fixtures.ts';
import { startTestPrinter, type TestPrinter } from '../apps/print-agent/src/test-printer.ts';
import { adminApi, dialog, login, newAgentKey, PASSWORD, type Api, expectAxeClean } from './support.ts';

// Labels and printers end to end: a print agent (the real one, in this process) dials out to the
// server with its own agent key (label/agent/create); its printer is a loopback TCP listener that records the
// ZPL it is sent. A stock label printed from Stock Adjust arrives there and its job shows as printed
// on the Label Printers page. Screenshots go to docs/screenshots/label-printer-*.png.

const shots = join(import.meta.dirname, '..', 'docs', 'screenshots');

let printer: TestPrinter;
let agent: Agent;
let api: Api & { siteId: string };
let requests: APIRequestContext;
let dockKey: string;
const dockAgent = () =>
  testAgent({
    siteId: api.siteId,
    agentKey: dockKey,
    agentId: 'e2e-dock',
    name: 'Dock agent',
    printer: { id: 'zebra', name: 'Zebra ZT410 (dock)', port: printer.port },
  });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  requests = await playwrightRequest.newContext({ baseURL: E2E_SERVER });
  api = await adminApi(requests);
  dockKey = await newAgentKey(api, 'e2e-dock', 'Dock agent');
  printer = await startTestPrinter();
  agent = dockAgent();
  agent.start();
  await expect.poll(() => agent.connected(), { timeout: 15_000 }).toBe(true);
});

test.afterAll(async () => {
  await agent?.stop();
  await printer?.close();
  await requests?.dispose();
});

async function makeUser(tag: string, admin: boolean): Promise<string> {
  const userName = `lbl_${tag.toLowerCase()}`;
  await api('admin/account/create', {
    account: { userName, firstName: 'Label', surnames: tag, email: '', badgeCode: '' },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles: admin ? ['siteAdmin'] : [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  });
  return userName;
}

test('prints a stock label from Stock Adjust to the test printer and sees it printed on Label Printers', async ({ page }, testInfo) => {
  const tag = `${testInfo.project.name[0]!.toUpperCase()}${Date.now().toString(36).toUpperCase()}`;
  await api('item/save', {
    record: { partNumber: `LBL-${tag}`, description: `Label widget ${tag}`, uom: 'EA', tracking: 'none', barcodes: [] },
  });
  await api('location/save', { record: { warehouse: 'MAIN', code: `LBL-${tag}`, description: 'Label test bin', type: 'bin' } });
  const received = (await api('stock/receive', {
    idempotencyKey: `lbl-${tag}`,
    record: { partNumber: `LBL-${tag}`, warehouse: 'MAIN', location: `LBL-${tag}`, quantity: 12, conditionCode: 'NE' },
  })) as { stock: { stockId: string } };
  const stockId = received.stock.stockId;
  const before = printer.prints.length;

  await login(page, await makeUser(tag, false));
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto(`/stockAdjust/${stockId}`);
  // The printer list arrives over the socket: the button then prints instead of downloading.
  const button = page.getByTestId('print-stock-label');
  await expect(button).toHaveAttribute('data-printer', 'e2e-dock/zebra');
  await expect(button).toHaveText('Print label');
  await button.click();
  await expect(page.getByText('Label printed on Zebra ZT410 (dock)')).toBeVisible();
  const prints = await printer.waitForPrints(before + 1);
  expect(prints[before]).toContain(`^FD${stockId}^FS`);
  expect(prints[before]).toContain(`LBL-${tag}`);
  expect(prints[before]).toContain('^PQ1^XZ');
  await page.screenshot({ path: join(shots, `label-printer-stock-adjust-${page.viewportSize()!.width}.png`), fullPage: true });

  // Print after adjust (the stockAdjust preference): the adjusted record's label prints by itself.
  await page.getByTestId('print-on-adjust').check();
  await page.getByTestId('adjust-action').getByText('Adjust', { exact: true }).click();
  await page.getByTestId('adjust-mode').getByText('Add', { exact: true }).click();
  await page.getByTestId('adjust-qty').fill('3');
  await page.getByTestId('adjust-reason').click();
  await page.getByRole('option', { name: 'Found', exact: true }).click();
  await page.getByTestId('adjust-submit').click();
  const confirm = dialog(page, 'Adjust quantity');
  await confirm.getByRole('button', { name: 'Adjust', exact: true }).click();
  await expect(page.getByTestId('change-result')).toContainText(`${stockId} adjusted to 15`);
  const auto = await printer.waitForPrints(before + 2);
  expect(auto[before + 1]).toContain('Qty 15 EA');
  await page.getByTestId('print-on-adjust').uncheck();

  await page.goto('/labelPrinter');
  const card = page.locator('[data-testid=agent-card][data-agent=e2e-dock]');
  await expect(card.getByTestId('agent-connection')).toHaveText('Connected');
  await expect(card.getByTestId('printer-state')).toHaveText('Online');
  const row = page.locator('[data-testid=job-row][data-state=printed]').first();
  await expect(row).toBeVisible();
  await expect(row).toContainText('stock-4x2 v1');

  // Paper out: a test print is held, said on the page, and printed once paper is back.
  printer.flags = { paperOut: true };
  await expect(card.getByTestId('printer-state')).toHaveText('Paper out', { timeout: 10_000 });
  await card.getByTestId('test-print').click();
  await expect(page.locator('[data-testid=job-row][data-state=held]').first()).toContainText('out of paper');
  await page.screenshot({ path: join(shots, 'label-printer-held-1440.png'), fullPage: true });
  printer.flags = {};
  await expect(page.locator('[data-testid=job-row][data-state=held]')).toHaveCount(0, { timeout: 15_000 });
  await expect(card.getByTestId('printer-state')).toHaveText('Online', { timeout: 10_000 });

  // Reprint: the same bytes again.
  const count = printer.prints.length;
  await page.locator(`[data-testid=job-row][data-state=printed]`).last().getByTestId('reprint').click();
  await printer.waitForPrints(count + 1);
  // Off the button just clicked: its hover colour is not what the page shows.
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(shots, 'label-printer-1440.png'), fullPage: true });
  await expectAxeClean(page);
});

test('printed means printed: paper out at label 5 of 20 shows "5 of 20 printed" and Print the rest prints the other 15; printers by name, dates year-month-day; no templates for a clerk @mobile', async ({
  page,
}) => {
  const width = page.viewportSize()!.width;
  const tag = `R${width}${Date.now().toString(36).toUpperCase()}`;
  await login(page, await makeUser(tag, false));
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto('/labelPrinter');
  const card = page.locator('[data-testid=agent-card][data-agent=e2e-dock]');
  await expect(card.getByTestId('printer-state')).toHaveText('Online');
  // On the floor the page is printers and jobs: the templates are the administrators'.
  await expect(page.getByRole('heading', { name: 'Recent jobs' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Label templates' })).toHaveCount(0);

  // A printer that prints a label every 40 ms and runs out of paper at the fifth.
  const out = printer.labelsOut;
  printer.flags = { labelMs: 40, paperOutAfter: out + 5 };
  const job = (await api('label/print', {
    idempotencyKey: `rest-${tag}`,
    kind: 'stock',
    printerId: 'e2e-dock/zebra',
    copies: 20,
    source: { test: true },
  })) as { job: { jobId: string } };
  const row = page.locator(`[data-testid=job-row][data-job="${job.job.jobId}"]`);
  await expect(row).toHaveAttribute('data-state', 'failed', { timeout: 15_000 });
  await expect(row.getByTestId('job-printed')).toHaveText('5 of 20 printed');
  await expect(row).toContainText('out of paper after 5 of 20 label(s) printed');
  await expect(row).toContainText('Zebra ZT410 (dock)');
  await expect(row).not.toContainText('e2e-dock/zebra');
  await expect(row).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  expect(printer.labelsOut - out).toBe(5);
  // Paper back: nothing more comes out by itself (the agent cancelled the rest at the printer).
  printer.flags = { labelMs: 5 };
  await expect(card.getByTestId('printer-state')).toHaveText('Online', { timeout: 10_000 });
  expect(printer.labelsOut - out).toBe(5);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(shots, `label-printer-partial-${width}.png`), fullPage: true });
  await expectAxeClean(page);

  // Print the rest, by keyboard: the other 15 labels, once.
  const rest = row.getByTestId('print-rest');
  await expect(rest).toBeVisible();
  const box = await rest.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  await rest.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('The other 15 label(s) sent')).toBeVisible();
  await expect(row.getByTestId('print-rest')).toHaveCount(0);
  await expect.poll(() => printer.labelsOut - out, { timeout: 15_000 }).toBe(20);
  await expect(page.locator('[data-testid=job-row][data-state=printed]').first()).toBeVisible();
  await new Promise((r) => setTimeout(r, 500));
  expect(printer.labelsOut - out).toBe(20);
  printer.flags = {};
});

test('live status never goes stale: an agent that goes away while the page hears nothing shows offline once the socket subscribes again @mobile', async ({
  page,
}) => {
  const width = page.viewportSize()!.width;
  const agentId = `e2e-gone-${width}`;
  // The page's socket goes through here: while `deaf`, what the server sends is lost (a socket down,
  // or events before a subscription); closing it makes the client reconnect and subscribe again.
  let deaf = false;
  const sockets: Array<{ close(): Promise<void> }> = [];
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      if (!deaf) ws.send(m);
    });
    sockets.push(ws);
  });
  const gone = testAgent({
    siteId: api.siteId,
    agentKey: await newAgentKey(api, agentId, `Gone agent ${width}`),
    agentId,
    name: 'Gone agent',
    printer: { id: 'zebra', name: 'Zebra (gone)', port: printer.port },
  });
  gone.start();
  try {
    await login(page, await makeUser(`G${width}${Date.now().toString(36).toUpperCase()}`, false));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/labelPrinter');
    const card = page.locator(`[data-testid=agent-card][data-agent="${agentId}"]`);
    await expect(card.getByTestId('agent-connection')).toHaveText('Connected', { timeout: 15_000 });
    // The dock agent's heartbeats would tell the page every agent's state anyway: it is stopped here.
    await agent.stop();
    await expect(page.locator('[data-testid=agent-card][data-agent=e2e-dock]').getByTestId('agent-connection')).toContainText(
      'Offline since',
      { timeout: 10_000 },
    );
    deaf = true;
    await gone.stop();
    await expect
      .poll(
        async () =>
          ((await api('label/agent/list')) as { agents: Array<{ agentId: string; connected: boolean }> }).agents.find(
            (a) => a.agentId === agentId,
          )?.connected,
        { timeout: 10_000 },
      )
      .toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    // The page missed it: still "Connected".
    await expect(card.getByTestId('agent-connection')).toHaveText('Connected');
    // The connection drops and comes back: subscribed again, the agents are read again.
    deaf = false;
    for (const ws of sockets.splice(0)) await ws.close();
    await expect(card.getByTestId('agent-connection')).toContainText('Offline since', { timeout: 20_000 });
  } finally {
    await gone.stop();
    await agent.stop();
    agent = dockAgent();
    agent.start();
    await expect.poll(() => agent.connected(), { timeout: 15_000 }).toBe(true);
  }
});

test('previews every default template on the server @mobile', async ({ page }, testInfo) => {
  const width = page.viewportSize()!.width;
  await login(page, await makeUser(`P${width}${Date.now().toString(36).toUpperCase()}`, true));
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto('/labelPrinter');
  await expect(page.getByTestId('template-preview')).toBeVisible();
  const ids = ['stock-4x2', 'stock-2x1', 'stock-qr-2x2', 'pick-4x3', 'traveller-4x6', 'loc-3x1', 'staff-badge'];
  for (const id of ids) {
    await page.getByTestId('template-select').click();
    await page
      .getByRole('option', { name: new RegExp(`v\\d+$`) })
      .first()
      .waitFor();
    const names = new Map([
      ['stock-4x2', 'Stock 4 x 2 in'],
      ['stock-2x1', 'Stock 2 x 1 in'],
      ['stock-qr-2x2', 'Stock 2 x 2 in'],
      ['pick-4x3', 'Pick 4 x 3 in'],
      ['traveller-4x6', 'Order traveller 4 x 6 in'],
      ['loc-3x1', 'Location 3 x 1 in'],
      ['staff-badge', 'Staff badge'],
    ]);
    await page.getByRole('option', { name: new RegExp(`^${names.get(id)!}`) }).click();
    const preview = page.locator(`[data-testid=template-preview][data-template="${id}"]`);
    await expect(preview).toBeVisible();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    if (width > 1000 || id === 'stock-4x2') await preview.screenshot({ path: join(shots, `label-printer-template-${id}.png`) });
  }
  // An unknown field is refused with the fields the kind may use.
  const zpl = page.getByTestId('template-zpl');
  await zpl.fill('^XA^FO20,20^A0N,30,30^FD{{shoeSize}}^FS^XZ');
  await expect(page.getByTestId('template-preview-error')).toContainText('Unknown field {{shoeSize}}');
  await expect(page.getByTestId('template-save')).toBeDisabled();
  await zpl.fill('^XA^FO20,20^A0N,30,30^FD{{name}} / {{badge}}^FS^FO20,60^BCN,60,Y,N,N^FD{{badge}}^FS^XZ');
  await expect(page.locator('[data-testid=template-preview][data-template="staff-badge"]')).toBeVisible();
  const version = Number(/v(\d+)$/.exec(await page.getByTestId('template-select').inputValue())?.[1]);
  await page.getByTestId('template-save').click();
  await expect(page.getByTestId('template-select')).toHaveValue(new RegExp(`v${version + 1}$`));
  await page.screenshot({ path: join(shots, `label-printer-templates-${width}.png`), fullPage: true });
  await expectAxeClean(page);
  testInfo.annotations.push({ type: 'templates', description: ids.join(', ') });
});

test('chooses the printer and the stock template at the print button, from the keyboard, and keeps them on this device @mobile', async ({
  page,
}, testInfo) => {
  const width = page.viewportSize()!.width;
  const tag = `C${testInfo.project.name[0]!.toUpperCase()}${Date.now().toString(36).toUpperCase()}`;
  // A second agent with its own loopback printer: "Zone agent" sorts after "Dock agent".
  const second = await startTestPrinter();
  const zone = testAgent({
    siteId: api.siteId,
    agentKey: await newAgentKey(api, 'e2e-zone', 'Zone agent'),
    agentId: 'e2e-zone',
    name: 'Zone agent',
    printer: { id: 'gk', name: 'Zebra GK420d (zone)', port: second.port },
  });
  zone.start();
  try {
    await expect.poll(() => zone.connected(), { timeout: 15_000 }).toBe(true);
    await api('item/save', {
      record: { partNumber: `CH-${tag}`, description: `Chooser widget ${tag}`, uom: 'EA', tracking: 'none', barcodes: [] },
    });
    await api('location/save', { record: { warehouse: 'MAIN', code: `CH-${tag}`, description: 'Chooser bin', type: 'bin' } });
    const received = (await api('stock/receive', {
      idempotencyKey: `ch-${tag}`,
      record: { partNumber: `CH-${tag}`, warehouse: 'MAIN', location: `CH-${tag}`, quantity: 2, conditionCode: 'NE' },
    })) as { stock: { stockId: string } };
    const stockId = received.stock.stockId;

    await login(page, await makeUser(tag, false));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto(`/stockAdjust/${stockId}`);
    const button = page.getByTestId('print-stock-label');
    await expect(button).toHaveAttribute('data-printer', 'e2e-dock/zebra');

    // Keyboard only: open the chooser, arrow to the second printer, tab to the templates, arrow to another one.
    await page.getByTestId('print-stock-label-choose').focus();
    await page.keyboard.press('Enter');
    const choice = page.getByTestId('label-choice');
    await expect(choice.getByRole('radio', { name: 'Zebra ZT410 (dock) (Dock agent)' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(choice.getByRole('radio', { name: 'Zebra GK420d (zone) (Zone agent)' })).toBeChecked();
    await expect(choice.getByRole('radio', { name: /^Stock 4 x 2 in/ })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(choice.getByRole('radio', { name: /^Stock 4 x 2 in/ })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    const chosen = choice.locator('input[type=radio][data-template]:checked');
    await expect(chosen).not.toHaveAttribute('data-template', 'stock-4x2');
    const templateId = (await chosen.getAttribute('data-template'))!;
    // Touch targets at rest: measured while the modal's opening transition ran, a row once came out 43.99998 px.
    const rowHeights = async () =>
      Promise.all(
        (await choice.getByRole('radio').all()).map(
          async (radio) => (await radio.locator('xpath=ancestor::*[contains(@class,"mantine-Radio-body")]').boundingBox())!.height,
        ),
      );
    await expect.poll(async () => Math.min(...(await rowHeights()))).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: join(shots, `label-printer-choose-${width}.png`), fullPage: true });
    await expectAxeClean(page);
    await page.keyboard.press('Escape');
    await expect(choice).toBeHidden();
    await expect(button).toHaveAttribute('data-printer', 'e2e-zone/gk');

    // The print goes to the chosen printer with the chosen template; the dock printer gets nothing.
    const dockBefore = printer.prints.length;
    await button.click();
    const prints = await second.waitForPrints(1);
    expect(prints[0]).toContain(`^FD${stockId}^FS`);
    const { jobs } = (await api('label/job/list', { limit: 5 })) as { jobs: Array<{ printerId: string; templateId: string }> };
    expect(jobs[0]).toMatchObject({ printerId: 'e2e-zone/gk', templateId });
    expect(printer.prints.length).toBe(dockBefore);

    // Kept on this device (machine settings): after a reload the button still prints there.
    await page.reload();
    await expect(page.getByTestId('print-stock-label')).toHaveAttribute('data-printer', 'e2e-zone/gk');
    const saved = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('machine_settings') ?? '{}') as { state: { labelPrinter: unknown } }).state.labelPrinter,
    );
    expect(saved).toMatchObject({ printerId: 'e2e-zone/gk', stockTemplateId: templateId, copies: 1 });
  } finally {
    await zone.stop();
    await second.close();
  }
});

test('an administrator adds a print agent, the agent connects with the key shown once, and Revoke ends its connection at once @mobile', async ({
  page,
}, testInfo) => {
  const width = page.viewportSize()!.width;
  const tag = `A${testInfo.project.name[0]!.toUpperCase()}${Date.now().toString(36).toUpperCase()}`;
  const agentId = `e2e-added-${tag.toLowerCase()}`;
  await login(page, await makeUser(tag, true));
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto('/labelPrinter');
  const add = page.getByTestId('add-agent').first();
  await expect(add).toBeVisible();
  expect((await add.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await add.click();
  await page.getByTestId('agent-id').fill(agentId);
  await page.getByTestId('agent-name').fill(`Added agent ${tag}`);
  await page.getByTestId('add-agent-submit').click();
  const key = (await page.getByTestId('agent-key').textContent())!.trim();
  expect(key).toMatch(/^agk_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId('agent-config')).toContainText(`"agentKey": "${key}"`);
  await expect(page.getByTestId('agent-config')).toContainText(`"agentId": "${agentId}"`);
  for (const id of ['copy-agent-key', 'copy-agent-config', 'agent-key-done'])
    expect((await page.getByTestId(id).boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectAxeClean(page);
  await page.screenshot({ path: join(shots, `label-printer-add-agent-${width}.png`) });
  await page.getByTestId('agent-key-done').click();

  // The agent runs with that key and connects.
  const own = await startTestPrinter();
  const added = testAgent({
    siteId: api.siteId,
    agentKey: key,
    agentId,
    name: 'ignored: the name given on the page is shown',
    printer: { id: 'zebra', name: 'Zebra (added)', port: own.port },
  });
  added.start();
  try {
    const card = page.locator(`[data-testid=agent-card][data-agent="${agentId}"]`);
    await expect(card.getByTestId('agent-connection')).toHaveText('Connected', { timeout: 15_000 });
    await expect(card).toContainText(`Added agent ${tag}`);
    const revoke = card.getByTestId('revoke-agent');
    expect((await revoke.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await revoke.click();
    await dialog(page, `Revoke Added agent ${tag}?`).getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(card).toHaveCount(0);
    await expect.poll(() => added.stoppedBecause() ?? '', { timeout: 1000 }).toContain('revoked');
    expect(added.connected()).toBe(false);
  } finally {
    await added.stop();
    await own.close();
  }
});
