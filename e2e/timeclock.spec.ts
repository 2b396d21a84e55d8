import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, expect, test, type Page, type TestInfo } from '@playwright/test';
import { writeFakeCamera } from './fixtures/make-fake-camera.ts';
import { adminApi, login, PASSWORD, useMachine, type Api, uniqueTag, expectAxeClean, scan } from './support.ts';

// The time clock (docs/timeclock.md) on a wall tablet and a 360x640 phone: a fake camera films the
// punch photo, badges arrive as keyboard-wedge scans, a missed punch is asked at the next scan, and
// a timekeeper corrects it on Punch Corrections (/punches).

/** A worker with a badge of their own (and the account id). */
async function makeWorker(api: Api & { siteId: string }, tag: string): Promise<{ badge: string; id: string; userName: string }> {
  const userName = `tc_${tag.toLowerCase()}`;
  const res = (await api('admin/account/create', {
    account: { userName, firstName: 'Tess', surnames: `Worker${tag}`, email: '', badgeCode: `TC-${tag}` },
    password: PASSWORD,
    perms: [{ siteId: api.siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  })) as { account: { id: string } };
  return { badge: `TC-${tag}`, id: res.account.id, userName };
}

/** A screenshot for docs/screenshots (the viewport: the clock is one screen). */
async function docShot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: fileURLToPath(new URL(`../docs/screenshots/${name}.png`, import.meta.url)) });
}

/** A keyboard-wedge scan into the clock's badge field (where a wall clock keeps the focus), then Enter. */
async function wedge(page: Page, code: string) {
  await page.getByTestId('clock-scan').click();
  await scan(page, code);
}

async function cameraBrowser(testInfo: TestInfo, baseURL: string | undefined, file: string) {
  const use = testInfo.project.use;
  const browser = await chromium.launch({
    ...use.launchOptions,
    args: [
      ...(use.launchOptions?.args ?? []),
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${file}`,
    ],
  });
  const context = await browser.newContext({ baseURL, viewport: use.viewport, hasTouch: use.hasTouch, isMobile: use.isMobile });
  return { browser, page: await context.newPage() };
}

/** The clock account picks the fake camera as its time-clock camera in App Settings. */
async function chooseClockCamera(page: Page) {
  await page.goto('/appSettings');
  const allow = page.getByTestId('camera-allow').first();
  await expect(page.getByTestId('timeclock-cam')).toBeVisible();
  if (await allow.isVisible()) await allow.click();
  const select = page.getByTestId('timeclock-cam');
  await expect(select.locator('option')).toHaveCount(2);
  await select.selectOption({ index: 1 });
  await page.getByTestId('save-settings').click();
  await page.goto('/timeclock');
}

/**
 * Punch Corrections readable: the day with the date and a 24-hour time, state badges whole (not cut),
 * and at 360 px a card per punch whose values are not squeezed beside the buttons (one line for the
 * punch and its time, the buttons under it, 44 px high).
 */
async function expectReadablePunches(page: Page, narrow: boolean) {
  const when = /^(In|Out|Void)?( · )?(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d\d-\d\d \d\d:\d\d$/;
  const badges = page.getByTestId('punch-state').locator('.mantine-Badge-root');
  expect(await badges.count()).toBeGreaterThan(0);
  for (const badge of await badges.all()) {
    const cut = await badge.evaluate((el) => [...el.querySelectorAll('*'), el].some((e) => e.scrollWidth > e.clientWidth + 1));
    expect(cut, await badge.innerText()).toBe(false);
  }
  const table = page.getByTestId('punches-table');
  expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  if (!narrow) {
    await expect(table.locator('tbody tr').first().locator('td').nth(2)).toHaveText(when);
    return;
  }
  const card = page.locator('[data-testid^="punch-card-"]').first();
  const whenLine = card.getByTestId('punch-when');
  await expect(whenLine).toHaveText(when);
  const line = await whenLine.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  const box = (await whenLine.boundingBox())!;
  expect(box.height, 'the punch and its time on one line').toBeLessThan(line * 1.5);
  for (const button of await card.getByRole('button').all()) {
    const b = (await button.boundingBox())!;
    expect(
      await button.evaluate((el) => [...el.querySelectorAll('*'), el].some((e) => e.scrollWidth > e.clientWidth + 1)),
      'the button label whole',
    ).toBe(false);
    expect(b.y, 'the buttons are under the values').toBeGreaterThanOrEqual(box.y + box.height);
    expect(b.height).toBeGreaterThanOrEqual(44);
  }
}

test.describe('time clock', () => {
  test('badge scans punch in and out with a photo; a second scan never punches twice @mobile', async ({ baseURL, request }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const worker = await makeWorker(api, tag);
    const size = testInfo.project.name === 'mobile' ? '360' : 'tablet';
    const { browser, page } = await cameraBrowser(testInfo, baseURL, await writeFakeCamera('CLOCK'));
    try {
      if (size === 'tablet') await page.setViewportSize({ width: 1024, height: 768 });
      await useMachine(page);
      await login(page, 'clock');
      await expect(page).toHaveURL(/\/timeclock$/);
      await chooseClockCamera(page);
      await expect(page.getByTestId('clock-camera-state')).toContainText('Camera on');
      await expect(page.getByTestId('clock-prompt')).toBeVisible();
      await expectAxeClean(page, `timeclock ${size}`);
      await docShot(page, `timeclock-${size}`);

      await wedge(page, worker.badge);
      const answer = page.getByTestId('clock-answer');
      await expect(answer).toHaveAttribute('data-result', 'punched');
      await expect(answer).toHaveAttribute('data-in', 'true');
      await expect(answer).toContainText('Tess W.');
      await expect(page.getByTestId('clock-today').getByText(/^In /)).toHaveCount(1);
      // No one else's name anywhere on the clock.
      await expect(page.getByText('Admin')).toHaveCount(0);
      await docShot(page, `timeclock-punched-in-${size}`);

      // A second scan, not a trigger bounce (the same code within 1.5 s is one scan, docs/scanning.md),
      // well inside the clock's 8 s debounce: the axe check of the answer comes after it (under load it
      // took long enough for the second scan to be a real out).
      await page.waitForTimeout(1600);
      await wedge(page, worker.badge);
      await expect(answer).toHaveAttribute('data-result', 'duplicate');
      await expect(page.getByTestId('clock-headline')).toContainText('Already punched in');
      await expectAxeClean(page, `timeclock answer ${size}`);

      // The punch carries the photo and the device.
      const from = new Date(Date.now() - 3_600_000).toISOString();
      const to = new Date(Date.now() + 60_000).toISOString();
      const list = (await api('timeclock/punches/list', { from, to, accountId: worker.id })) as {
        punches: Array<{ photoMediaId: string | null; deviceId: string; kind: string }>;
      };
      expect(list.punches).toHaveLength(1);
      expect(list.punches[0]).toMatchObject({ kind: 'in', deviceId: 'WS0001', photoMediaId: expect.any(String) });
    } finally {
      await browser.close();
    }
  });

  test('"leaving now" after 38 hours is not a 38-hour shift: it goes to the timekeeper, nothing closed @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const worker = await makeWorker(api, tag);
    // In for 38 hours: far beyond the maximum shift (12 h by default).
    const inAt = new Date(Date.now() - 38 * 3_600_000);
    await api('timeclock/correct', {
      idempotencyKey: `e2e-long-${tag}`,
      accountId: worker.id,
      kind: 'in',
      at: inAt.toISOString(),
      reason: 'Seeded by the test',
    });

    await useMachine(page);
    await login(page, 'clock');
    await expect(page).toHaveURL(/\/timeclock$/);
    await wedge(page, worker.badge);
    // The question names the in with its day and a 24-hour time; "I left at" starts empty.
    await expect(page.getByTestId('clock-missed-question')).toContainText(
      /In since (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d\d-\d\d \d\d:\d\d — when did you leave\?/,
    );
    await expect(page.getByTestId('clock-missed-time')).toHaveValue('');
    await page.getByTestId('clock-missed-leaving-now').focus();
    await page.keyboard.press('Enter');
    const answer = page.getByTestId('clock-answer');
    await expect(answer).toHaveAttribute('data-result', 'forTimekeeper');
    await expect(answer).toHaveAttribute('data-in', 'false');
    await expect(page.getByTestId('clock-headline')).toContainText(
      /Out at \d\d:\d\d: more than 12 hours since you came in, so a timekeeper confirms it/,
    );
    await expectAxeClean(page, 'leaving now for the timekeeper');

    const from = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const list = (await api('timeclock/punches/list', { from, to, accountId: worker.id })) as {
      punches: Array<{ kind: string; source: string; status: string }>;
    };
    expect(list.punches.map((p) => `${p.kind} ${p.source} ${p.status}`).sort()).toEqual(['in correction valid', 'out missed pending']);
  });

  test('a typed badge needs the PIN; a missed punch is asked and corrected on Punch Corrections @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const worker = await makeWorker(api, tag);
    await api('timeclock/setPin', { accountId: worker.id, pin: '2468' });
    // Clocked in since yesterday afternoon, never out.
    const inAt = new Date(Date.now() - 20 * 3_600_000);
    await api('timeclock/correct', {
      idempotencyKey: `e2e-in-${tag}`,
      accountId: worker.id,
      kind: 'in',
      at: inAt.toISOString(),
      reason: 'Seeded by the test',
    });

    await useMachine(page);
    await login(page, 'clock');
    await expect(page).toHaveURL(/\/timeclock$/);
    await page.getByTestId('clock-type-badge').click();
    await page.getByTestId('clock-badge').fill(worker.badge);
    await page.getByTestId('clock-pin').fill('1111');
    await page.getByTestId('clock-typed-submit').click();
    await expect(page.getByTestId('clock-error')).toContainText('not recognised');

    await page.getByTestId('clock-badge').fill(worker.badge);
    await page.getByTestId('clock-pin').fill('2468');
    await page.getByTestId('clock-typed-submit').click();
    await expect(page.getByTestId('clock-missed-question')).toContainText('when did you leave?');
    await expectAxeClean(page, 'missed punch');
    await docShot(page, `timeclock-missed-${testInfo.project.name === 'mobile' ? '360' : '1440'}`);
    // Empty at first: sending it says what to write; a time before the in is refused on the spot.
    const field = page.getByTestId('clock-missed-time');
    await expect(field).toHaveValue('');
    await page.getByTestId('clock-missed-submit').click();
    await expect(page.getByText(/Enter the date and time you left, like \d{4}-\d\d-\d\d 16:00/)).toBeVisible();
    const localText = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    await field.fill(localText(new Date(inAt.getTime() - 3_600_000)));
    await expect(page.getByText(/The time must be after you came in/)).toBeVisible();
    await field.fill('5:00 PM');
    await expect(page.getByText(/Write it as year-month-day hours:minutes/)).toBeVisible();
    const left = new Date(inAt.getTime() + 8 * 3_600_000);
    await field.fill(localText(left));
    await page.getByTestId('clock-missed-submit').click();
    await expect(page.getByTestId('clock-answer')).toHaveAttribute('data-in', 'true');
    await expect(page.getByTestId('clock-today')).toBeVisible();

    // The timekeeper approves the stated time on Punch Corrections.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.removeItem('auth_settings'));
    await login(page, 'tcadmin');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-punches').click();
    await expect(page).toHaveURL(/\/punches$/);
    await page.getByTestId('punches-pending').click({ force: true });
    const row = page.getByText(`Tess Worker${tag}`).first();
    await expect(row).toBeVisible();
    await expectAxeClean(page, 'punch corrections');
    await docShot(page, `timeclock-corrections-${testInfo.project.name === 'mobile' ? '360' : '1440'}`);
    await expectReadablePunches(page, testInfo.project.name === 'mobile');
    // This worker's record (the other viewport's test and the 38-hour test leave pending rows of their own).
    await page
      .locator('[data-testid^="punch-card-"], tbody tr')
      .filter({ hasText: `Tess Worker${tag}` })
      .locator('[data-testid^="correct-"]')
      .first()
      .click();
    await expect(page.getByTestId('correct-original')).toContainText('pending');
    await expect(page.getByTestId('correct-at')).toHaveValue(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    await page.getByTestId('correct-save').click();
    await expect(page.getByText(`Tess Worker${tag}`)).toHaveCount(0);
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const csv = (await api('timeclock/punches/export', { from, to })) as { csv: string };
    expect(csv.csv.split('\r\n').filter((l) => l.includes(`Worker${tag}`) && l.includes('"correction"')).length).toBeGreaterThanOrEqual(2);
    // The page's Export CSV saves the week's punches as a file, the server's name on it.
    const saved = page.waitForEvent('download');
    await page.getByTestId('punches-export').click();
    const file = await saved;
    expect(file.suggestedFilename()).toMatch(/^punches-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
    const text = await readFile((await file.path())!, 'utf8');
    expect(text.split('\r\n').filter((l) => l.includes(`Worker${tag}`) && l.includes('"correction"')).length).toBeGreaterThanOrEqual(2);
  });

  test('a time-clock-only device offers only the time clock: typed pages go back to it, no Accounts in its menu @mobile', async ({
    page,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const worker = await makeWorker(api, uniqueTag(testInfo));
    await useMachine(page, { timeclockOnly: true });
    await login(page, 'clock');
    await expect(page).toHaveURL(/\/timeclock$/);
    for (const path of ['/tasks', '/stockLookup', '/userAcct', '/userRoles', '/punches', '/kiosk']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/timeclock$/);
      await expect(page.getByTestId('clock-prompt')).toBeVisible();
    }
    // The clock still punches after all that (a wedge scan), and the menu offers no other pages.
    await wedge(page, worker.badge);
    await expect(page.getByTestId('clock-answer')).toHaveAttribute('data-result', 'punched');
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('logout')).toBeVisible();
    await expect(page.getByTestId('menu-accounts')).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: /Accounts|Account Roles|Feature Access|Punch Corrections/ })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expectAxeClean(page, 'clock-only device');
  });

  test('the clerk cannot open Punch Corrections', async ({ page }) => {
    await useMachine(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/punches');
    await expect(page).not.toHaveURL(/\/punches$/);
  });

  test("an admin sets a worker's badge PIN in the account editor; the typed badge then needs it", async ({ page, request }, testInfo) => {
    test.skip(testInfo.project.name === 'mobile', 'the accounts page at 1440');
    const api = await adminApi(request);
    const tag = uniqueTag(testInfo);
    const worker = await makeWorker(api, tag);
    await useMachine(page);
    await login(page, 'admin');
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await page.goto('/userAcct');
    await page.getByTestId('tab-accounts').click();
    // The list pages: by now the other specs have made hundreds of accounts. Find the worker first.
    await page.getByRole('textbox', { name: 'Search' }).fill(worker.userName);
    await page.getByRole('button', { name: `Edit ${worker.userName}` }).click();
    const editor = page.getByRole('dialog');
    await editor.getByTestId('badge-pin-input').fill('12a');
    await expect(editor.getByTestId('badge-pin-save')).toBeDisabled();
    await editor.getByTestId('badge-pin-input').fill('5791');
    await expect(editor.getByTestId('badge-pin-input')).toHaveValue('5791');
    await editor.getByTestId('badge-pin-input').press('Enter');
    await expect(page.getByText('The badge PIN is set')).toBeVisible();
    await expect(editor.getByTestId('badge-pin-input')).toHaveValue('');
    await editor.getByTestId('badge-pin').scrollIntoViewIfNeeded();
    // The confirmation fades before the picture.
    await expect(page.getByText('The badge PIN is set')).toBeHidden({ timeout: 15_000 });
    await expectAxeClean(page, 'badge PIN');
    await docShot(page, 'account-badge-pin-1440');
    const typed = (pin: string) => api('timeclock/punch', { badge: worker.badge, entry: 'typed', pin });
    await expect(typed('1111')).rejects.toThrow('not recognised');
    expect(await typed('5791')).toMatchObject({ result: 'punched' });
  });
});
