import { join } from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { adminApi, HUMAN, login, PASSWORD, useMachine, type Api, uniqueTag, expectAxeClean, scan, wedgeScan } from './support.ts';

// Task labor: single task and batch task with wedge scans and the keyboard alone (at 360x640 too),
// and the labor reports at 1440x900. Each test makes its own worker and tasks through the API.

async function makeUser(api: Api & { siteId: string }, tag: string, roles: string[] = []): Promise<string> {
  const userName = `lab_${tag.toLowerCase()}`;
  await api('admin/account/create', {
    account: { userName, firstName: 'Labor', surnames: tag, email: '', badgeCode: `LB${tag}` },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles, kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  });
  // Labor is booked only while clocked in: the worker punches in at the time clock (the demo device
  // is authorised as one, and an admin may run it).
  await api('timeclock/punch', { badge: `LB${tag}` });
  return userName;
}

/** A new worker, clocked in, signed in on Single Task with nothing running. */
async function onSingleTask(page: Page, api: Api & { siteId: string }, tag: string): Promise<void> {
  await useMachine(page);
  await login(page, await makeUser(api, tag));
  await expect(page).toHaveURL(/\/tasks$/);
  await page.goto('/singleTask');
  await expect(page.getByTestId('no-running')).toBeVisible();
}

async function makeTasks(api: Api, tag: string, n: number): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 1; i <= n; i++) {
    const taskCode = `T${tag}-${i}`;
    await api('task/upsert', {
      record: {
        taskCode,
        kind: 'wos',
        orderNumber: `WO${tag}`,
        operationNumber: String(i * 10),
        description: `Operation ${i}`,
        workCentre: 'BENCH',
        plannedMinutes: 30,
      },
    });
    codes.push(taskCode);
  }
  return codes;
}

/** A screenshot into docs/screenshots (what the lead and the docs show). */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  // What a worker sees once the confirmation has faded: the top of the page.
  await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const path = join(testInfo.project.testDir, '..', 'docs', 'screenshots', `labor-${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

const clock = (text: string) => text.split(':').reduce((a, p) => a * 60 + Number(p), 0);

async function noSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test.describe('labor', () => {
  test.describe.configure({ timeout: 150_000 });

  test('a task stopped after the worker punched out ends at the out, and the screen says so @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const [a] = await makeTasks(api, tag, 1);
    await onSingleTask(page, api, tag);
    await wedgeScan(page, a!, () => expect(page.getByTestId('scanned-task')).toContainText(a!, { timeout: 3000 }));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('running-task')).toContainText(a!);
    // The worker punches out at the wall clock (a second scan of the badge after the debounce window).
    await page.waitForTimeout(8500);
    const out = (await api('timeclock/punch', { badge: `LB${tag}` })) as { result: string; punch?: { kind: string; at: string } };
    expect(out).toMatchObject({ result: 'punched', punch: { kind: 'out' } });
    // Back at the screen a little later: stopping books until the out, flagged, and says so.
    await page.waitForTimeout(1500);
    await expect(page.getByTestId('stop-form-qty')).toBeFocused();
    await page.keyboard.type('3', HUMAN);
    const stopped = page.waitForResponse('**/api/labor/stop');
    await page.keyboard.press('Enter');
    const answer = (await (await stopped).json()) as { stopped: Array<{ stoppedAt: string; endedAtPunchOut: boolean; qtyDone: number }> };
    expect(answer.stopped[0]).toMatchObject({ endedAtPunchOut: true, qtyDone: 3 });
    expect(Math.abs(Date.parse(answer.stopped[0]!.stoppedAt) - Date.parse(out.punch!.at))).toBeLessThan(1000);
    await expect(
      page.getByText(
        new RegExp(`Ended at your punch-out: ${a} stopped at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}, when you punched out`),
      ),
    ).toBeVisible();
    await expect(page.getByTestId('no-running')).toBeVisible();
    await expectAxeClean(page);
  });

  test('single task: scan, start, scan another (the first stops), stop with quantity and complete, keyboard alone @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const [a, b] = await makeTasks(api, tag, 2);
    await onSingleTask(page, api, tag);

    await wedgeScan(page, a!, () => expect(page.getByTestId('scanned-task')).toContainText(a!, { timeout: 3000 }));
    await expect(page.getByTestId('start-task')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('running-task')).toContainText(a!);

    await wedgeScan(page, b!, () => expect(page.getByTestId('scanned-task')).toContainText(b!, { timeout: 3000 }));
    await expect(page.getByTestId('scanned-task')).toContainText(`Starting it stops ${a}`);
    await expect(page.getByTestId('start-task')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('running-task')).toContainText(b!);
    await expect(page.getByText(`${a} stopped, ${b} started`)).toBeVisible();
    await expect(page.getByTestId('running-clock')).toHaveText(/^0:00:0\d$/);
    await noSideScroll(page);
    if (testInfo.project.name === 'mobile') await shot(page, testInfo, 'single-360');
    await expectAxeClean(page);

    // The running task's Quantity done is the prompt: focused once b runs. With a quantity typed, a
    // scan is refused (starting the task would stop b without it) and the field keeps what it holds;
    // Escape clears it.
    const qty = page.getByTestId('stop-form-qty');
    await expect(qty).toBeFocused();
    await page.keyboard.type('4', HUMAN);
    // The scan a second later: keys typed just before a burst read as its slow first keys (a broken scan).
    await page.waitForTimeout(1100);
    await scan(page, a!);
    await expect(page.getByText(`Stop ${b} first, or clear its stop form (Escape)`)).toBeVisible();
    await expect(qty).toHaveValue('4');
    await expect(qty).toBeFocused();
    await expect(page.getByTestId('scanned-task')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(qty).toHaveValue('');

    // Stop with the keyboard: the quantity field, the complete box (Space), Enter.
    await page.keyboard.type('7', HUMAN);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(page.getByTestId('stop-form-complete')).toBeChecked();
    await page.keyboard.press('Shift+Tab');
    const stopped = page.waitForRequest('**/api/labor/stop');
    await page.keyboard.press('Enter');
    expect((await stopped).postDataJSON()).toMatchObject({ qtyDone: 7, complete: true });
    await expect(page.getByTestId('no-running')).toBeVisible();
    await expect(page.getByText(new RegExp(`${b} stopped: \\d+\\.\\d h booked`))).toBeVisible();

    const cur = (await api('task/get', { taskCode: b })) as { task: { taskCode: string } };
    expect(cur.task.taskCode).toBe(b);
    // An unknown code is said on the page, no dialog.
    await wedgeScan(page, `NOPE${tag}`, () => expect(page.getByTestId('task-unknown')).toBeVisible({ timeout: 3000 }));
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('batch task: scanned tasks share the elapsed time to the second, live; each stops on its own @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const [a, b, c, d] = await makeTasks(api, tag, 4);
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/batchTask');
    await expect(page.getByTestId('batch-empty')).toBeVisible();
    for (const [i, code] of [a, b, c].entries()) {
      await wedgeScan(page, code!, () => expect(page.getByTestId('batch-entry')).toHaveCount(i + 1, { timeout: 3000 }));
    }
    await expect(page.getByTestId('batch-grace')).toBeVisible();
    // The shares add up to the elapsed time exactly, whatever second it is: both read in one go, from
    // one drawing of the page (read one after the other, they could straddle a tick of the clock).
    const read = () =>
      page.evaluate(() => ({
        shares: [...document.querySelectorAll('[data-testid=share]')].map((e) => e.textContent ?? ''),
        elapsed: document.querySelector('[data-testid=batch-elapsed]')?.textContent ?? '',
      }));
    // Live: the elapsed time counts up on its own (polled: a busy machine may draw a tick late).
    await expect.poll(async () => clock((await read()).elapsed), { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    const { shares, elapsed } = await read();
    expect(shares).toHaveLength(3);
    expect(shares.map(clock).reduce((x, y) => x + y, 0)).toBe(clock(elapsed));
    await noSideScroll(page);
    if (testInfo.project.name === 'mobile') await shot(page, testInfo, 'batch-360');
    else await shot(page, testInfo, 'batch-1440');
    await expectAxeClean(page);

    // Stop the second with the keyboard alone: its Stop button opens the quantity prompt, focused.
    const second = page.getByTestId('batch-entry').filter({ hasText: b! });
    const qty = page.getByTestId('batch-stop-form-qty');
    await second.getByTestId('batch-stop').focus();
    await page.keyboard.press('Enter');
    await expect(qty).toBeFocused();
    await page.keyboard.type('5', HUMAN);
    // The scan a second later: keys typed just before a burst read as its slow first keys (a broken scan).
    await page.waitForTimeout(1100);
    // A scan while it is open is refused: nothing joins the batch, the field keeps its 5.
    await scan(page, d!);
    await expect(page.getByText(`Stop ${b} first, or cancel`)).toBeVisible();
    await expect(qty).toHaveValue('5');
    await expect(qty).toBeFocused();
    await expect(page.getByTestId('batch-entry')).toHaveCount(3);
    // Escape cancels: the form closes, the focus is back on the task's Stop button.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('batch-stop-form')).toHaveCount(0);
    await expect(second.getByTestId('batch-stop')).toBeFocused();
    // Open again (empty), digits and Enter: stopped with that quantity.
    await page.keyboard.press('Enter');
    await expect(qty).toBeFocused();
    await expect(qty).toHaveValue('');
    await page.keyboard.type('3', HUMAN);
    const stopped = page.waitForRequest('**/api/labor/stop');
    await page.keyboard.press('Enter');
    expect((await stopped).postDataJSON()).toMatchObject({ qtyDone: 3, complete: false });
    await expect(page.getByTestId('batch-entry')).toHaveCount(2);
    await expect(page.getByTestId('batch-entry').filter({ hasText: b! })).toHaveCount(0);
    for (const [i, code] of [a, c].entries()) {
      await page.getByTestId('batch-entry').filter({ hasText: code! }).getByTestId('batch-stop').click();
      await page.getByTestId('batch-stop-form-submit').click();
      if (i === 0) await expect(page.getByTestId('batch-entry')).toHaveCount(1);
    }
    await expect(page.getByTestId('batch-empty')).toBeVisible();
  });

  test('labor reports for supervisors: per worker, task, order, day, planned vs actual, chart and CSV', async ({
    page,
    request,
  }, testInfo) => {
    test.skip(testInfo.project.name === 'mobile', 'a desktop page');
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    // A worker without the roles sees no reports link and cannot open them.
    await useMachine(page);
    await login(page, await makeUser(api, tag));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/singleTask');
    await expect(page.getByTestId('no-running')).toBeVisible();
    await expect(page.getByTestId('link-reports')).toHaveCount(0);
    await page.goto('/singleTask?view=reports');
    await expect(page.getByText('Labor reports are for administrators and time-clock administrators.')).toBeVisible();
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.removeItem('auth_settings'));

    await login(page, await makeUser(api, `${tag}S`, ['timeclockAdmin']));
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/singleTask');
    await page.getByTestId('link-reports').click();
    await expect(page.getByTestId('labor-reports')).toBeVisible();
    // The demo seed's labor of the last days.
    await expect(page.getByTestId('report-table').getByText('Cleo Clerk')).toBeVisible();
    await expect(page.getByTestId('report-chart').locator('.recharts-surface')).toBeVisible();
    await shot(page, testInfo, 'reports-1440');
    await expectAxeClean(page);
    await page.getByTestId('report-group').getByText('Planned vs actual').click();
    await expect(page.getByTestId('report-table').getByText('WO1001 / 10 Cut frame tubes')).toBeVisible();
    await shot(page, testInfo, 'reports-planned-1440');
    for (const g of ['Per task', 'Per order', 'Per day']) {
      await page.getByTestId('report-group').getByText(g).click();
      await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
    }
    const download = page.waitForEvent('download');
    await page.getByTestId('report-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^labor-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
    // Attendance (the punches of the time clock) beside labor: the supervisor punched in when made,
    // booked nothing, so all of their attendance so far is unallocated.
    await page.getByTestId('report-group').getByText('Attendance').click();
    const mine = page.getByTestId('report-table').locator('tr', { hasText: `Labor ${tag}S` });
    await expect(mine).toBeVisible();
    await expect(page.getByTestId('report-table').getByRole('columnheader', { name: 'Unallocated h' })).toBeVisible();
    await expect(page.getByTestId('report-chart').locator('.recharts-surface')).toBeVisible();
    await expect(page.getByTestId('report-chart').getByText('Unallocated h')).toBeVisible();
    await shot(page, testInfo, 'reports-attendance-1440');
    await expectAxeClean(page);
    await page.getByTestId('report-group').getByText('Per worker').click();
    await expect(page.getByTestId('report-table').getByRole('columnheader', { name: 'Attendance h' })).toBeVisible();
    // The punches, edited ones flagged, next to the labor entries.
    const punches = page.waitForEvent('download');
    await page.getByTestId('report-export-punches').click();
    const csv = await punches;
    expect(csv.suggestedFilename()).toMatch(/^punches-.*\.csv$/);
    const text = await (await import('node:fs/promises')).readFile((await csv.path())!, 'utf8');
    expect(text.split('\r\n')[0]).toContain(',edited,');
    expect(text).toContain(`Labor ${tag}S`);
  });
});
