import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminApi, AUTHORISED_WS, DEMO_WORKSTATION_SECRET, login, PASSWORD, scan, uniqueTag, useMachine, type Api } from './support.ts';
import { expectConnection, OwnServer, ownPort, swReady } from './offline-support.ts';

// The time clock offline (issue 27 item 5): a badge scanned while the clock cannot reach the server is
// kept on the clock, signed with the device's secret, survives a reload, and is replayed when the
// server answers: exactly one punch, recorded at the scan's time, marked offline.

test.use({ serviceWorkers: 'allow' });

/** The admin API on another server (the spec's own). */
async function adminApiAt(request: APIRequestContext, base: string): Promise<Api> {
  const site = (await (
    await request.post(`${base}/api/site/resolve`, { data: { siteId: '', appId: 'floorhand', orgId: 'demo', hostname: 'localhost' } })
  ).json()) as { site: { siteId: string; orgId: string } };
  const body0 = { siteId: site.site.siteId, appId: 'floorhand', orgId: site.site.orgId };
  const auth = (await (
    await request.post(`${base}/api/auth/login`, {
      data: { ...body0, userName: 'admin', password: PASSWORD, workstationId: AUTHORISED_WS, workstationSecret: DEMO_WORKSTATION_SECRET },
    })
  ).json()) as { authToken: string };
  return async (path, body = {}) => {
    const res = await request.post(`${base}/api/${path}`, {
      data: { ...body0, ...body },
      headers: { authorization: `Bearer ${auth.authToken}` },
    });
    const json = (await res.json()) as Awaited<ReturnType<Api>>;
    if (json.err) throw new Error(`${path}: ${json.err.message}`);
    return json;
  };
}

async function makeWorker(api: Api, siteId: string, tag: string) {
  const userName = `otc_${tag.toLowerCase()}`;
  const res = (await api('admin/account/create', {
    account: { userName, firstName: 'Olga', surnames: `Offline${tag}`, email: '', badgeCode: `OTC-${tag}` },
    password: PASSWORD,
    perms: [{ siteId, roles: [], kioskAcct: false, timeclockAcct: false, serviceAcct: false }],
  })) as { account: { id: string } };
  return { badge: `OTC-${tag}`, id: res.account.id };
}

async function punchesOf(api: Api, accountId: string) {
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  return (
    (await api('timeclock/punches/list', { from, to, accountId })) as {
      punches: Array<{ kind: string; source: string; at: string; status: string }>;
    }
  ).punches;
}

/** The clock's badge field has the focus on a wall clock; the scan arrives as the scanner types it. */
async function badgeScan(page: Page, badge: string) {
  await scan(page, badge);
}

test.describe('the time clock offline', () => {
  test('a badge scanned with the network off is kept, survives a reload, and is punched once at its time when the network returns @mobile', async ({
    page,
    context,
    request,
  }, testInfo) => {
    const api = await adminApi(request);
    const worker = await makeWorker(api, api.siteId, uniqueTag(testInfo));
    await useMachine(page, { timeclockOnly: true });
    await login(page, 'clock');
    await expect(page).toHaveURL(/\/timeclock$/);
    await swReady(page);

    await context.setOffline(true);
    await expectConnection(page, 'offline');
    const scannedAt = Date.now();
    await badgeScan(page, worker.badge);
    await expect(page.getByTestId('clock-queued')).toBeVisible();
    await expectConnection(page, 'offline', 1);

    // A reload while still offline: the service worker draws the clock, the punch is still kept.
    await page.reload();
    await expect(page.getByTestId('clock')).toBeVisible();
    await expectConnection(page, 'not online', 1);
    expect(await punchesOf(api, worker.id)).toEqual([]);

    await context.setOffline(false);
    await expectConnection(page, 'online', 0);
    await expect.poll(async () => (await punchesOf(api, worker.id)).length, { timeout: 20_000 }).toBe(1);
    const [p] = await punchesOf(api, worker.id);
    expect(p).toMatchObject({ kind: 'in', source: 'offline', status: 'valid' });
    // Recorded at the scan, not at the replay.
    expect(Math.abs(Date.parse(p!.at) - scannedAt)).toBeLessThan(5_000);
  });

  test.describe('with the server stopped', () => {
    let own: OwnServer;
    test.beforeAll(async () => {
      test.setTimeout(240_000);
      own = new OwnServer(ownPort(31));
      await own.start();
    });
    test.afterAll(async () => own.dispose());

    test('two badges scanned while the server is down are punched once each, in and out in order, after it comes back @mobile', async ({
      page,
      request,
    }, testInfo) => {
      test.setTimeout(180_000);
      const api = await adminApiAt(request, own.url);
      const site = (await (
        await request.post(`${own.url}/api/site/resolve`, {
          data: { siteId: '', appId: 'floorhand', orgId: 'demo', hostname: 'localhost' },
        })
      ).json()) as { site: { siteId: string } };
      const worker = await makeWorker(api, site.site.siteId, uniqueTag(testInfo));
      await useMachine(page, { timeclockOnly: true });
      await page.goto(`${own.url}/`);
      await page.getByLabel('Account').fill('clock');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect(page).toHaveURL(/\/timeclock$/);
      await swReady(page);

      await own.stop();
      await badgeScan(page, worker.badge);
      await expect(page.getByTestId('clock-queued')).toBeVisible();
      await expectConnection(page, 'not online', 1);
      // Ten seconds later (past the clock's debounce), the same badge again: the out.
      await page.waitForTimeout(9_000);
      await badgeScan(page, worker.badge);
      await expectConnection(page, 'not online', 2);
      await page.reload();
      await expect(page.getByTestId('clock')).toBeVisible();

      await own.start();
      await expectConnection(page, 'online', 0);
      const punches = await punchesOf(api, worker.id);
      expect(punches.map((x) => `${x.kind} ${x.source} ${x.status}`).sort()).toEqual(['in offline valid', 'out offline valid']);
    });
  });
});
