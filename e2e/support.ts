import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type CDPSession, type Page, type TestInfo } from '@playwright/test';

export const PASSWORD = 'demo1234';
/** Demo workstations authorised as kiosk and time clock; any other id is not. */
export const AUTHORISED_WS = 'WS0001';
/** The secret the demo workstations hold (apps/server/src/seed/demo.ts, DEMO.workstationSecret). */
export const DEMO_WORKSTATION_SECRET = 'demo-workstation-secret';

export interface MachineOverrides {
  id?: string;
  /** The device's secret: the demo one unless given; null for a device that holds none. */
  secret?: string | null;
  timeclockOnly?: boolean;
  kioskOnly?: boolean;
  screenSaver?: number;
  /** The print agents this device uses (machine settings labelPrinter.agents); none named means all. */
  labelAgents?: string[];
  /** The workstation's own language (machine settings language): shown whoever logs in. */
  language?: 'en' | 'es';
}

/** Sets this browser's machine_settings before the app loads, as App Settings would. */
export async function useMachine(page: Page, m: MachineOverrides = {}): Promise<void> {
  const state = {
    workstation: {
      id: m.id ?? AUTHORISED_WS,
      timeclockOnly: m.timeclockOnly ?? false,
      kioskOnly: m.kioskOnly ?? false,
      ...(m.secret === null ? {} : { secret: m.secret ?? DEMO_WORKSTATION_SECRET }),
    },
    ...(m.screenSaver !== undefined ? { screenSaver: m.screenSaver } : {}),
    ...(m.labelAgents ? { labelPrinter: { agents: m.labelAgents } } : {}),
    ...(m.language ? { language: m.language } : {}),
  };
  await page.addInitScript((s) => {
    if (!localStorage.getItem('machine_settings')) localStorage.setItem('machine_settings', JSON.stringify({ state: s, version: 0 }));
  }, state);
}

/**
 * The login form's Log in button, whatever the screen's language (the walk in Spanish logs in too):
 * the form's submit button.
 */
export const loginButton = (page: Page) => page.locator('form:has(input[name="userName"]) button[type="submit"]');

export async function fillLogin(page: Page, userName: string, opts: { stay?: boolean; password?: string } = {}): Promise<void> {
  await expect(loginButton(page)).toBeEnabled();
  await page.locator('input[name="userName"]').fill(userName);
  await page.locator('input[name="password"]').fill(opts.password ?? PASSWORD);
  if (opts.stay) await page.getByLabel('Stay logged in').check();
  await loginButton(page).click();
}

export async function login(page: Page, userName: string, opts: { stay?: boolean } = {}): Promise<void> {
  await page.goto('/');
  await fillLogin(page, userName, opts);
}

/** Below this width lists show cards and fold their filters (UI_BREAKPOINTS.sm). */
const NARROW_BELOW_PX = 600;

/**
 * Opens a list's filters where a handheld folds them behind its Filters button (the pick list, the
 * pack board, the count sheets: issue 24 item 7); on a wider screen they are always shown.
 */
export async function showFilters(page: Page, toggleTestId: string): Promise<void> {
  if ((page.viewportSize()?.width ?? 1440) >= NARROW_BELOW_PX) return;
  const toggle = page.getByTestId(toggleTestId);
  await expect(toggle).toBeVisible();
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

export function dialog(page: Page, title: string) {
  return page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: title }).or(page.getByText(title, { exact: true })) });
}

export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

export type Api = (path: string, body?: Record<string, unknown>) => Promise<Record<string, unknown> & { err?: { message: string } }>;

/** The API as the admin, for test data. */
export async function adminApi(request: APIRequestContext): Promise<Api & { siteId: string }> {
  const base0 = { siteId: '', appId: 'floorhand', orgId: 'demo' };
  const site = (await (await request.post('/api/site/resolve', { data: { ...base0, hostname: 'localhost' } })).json()) as {
    site: { siteId: string; orgId: string };
  };
  const base = { siteId: site.site.siteId, appId: 'floorhand', orgId: site.site.orgId };
  const auth = (await (
    await request.post('/api/auth/login', {
      data: { ...base, userName: 'admin', password: PASSWORD, workstationId: AUTHORISED_WS, workstationSecret: DEMO_WORKSTATION_SECRET },
    })
  ).json()) as { authToken: string };
  const api: Api = async (path, body = {}) => {
    const res = await request.post(`/api/${path}`, { data: { ...base, ...body }, headers: { authorization: `Bearer ${auth.authToken}` } });
    const json = (await res.json()) as Awaited<ReturnType<Api>>;
    if (json.err) throw new Error(`${path}: ${json.err.message}`);
    return json;
  };
  return Object.assign(api, { siteId: base.siteId });
}

/** A person with the password PASSWORD and no roles (a plain worker), or a kiosk or time clock account; returns the user name. */
export async function makePerson(
  api: Api & { siteId: string },
  userName: string,
  opts: { firstName?: string; surnames?: string; kioskAcct?: boolean; timeclockAcct?: boolean; badgeCode?: string; roles?: string[] } = {},
): Promise<string> {
  await api('admin/account/create', {
    account: {
      userName,
      firstName: opts.firstName ?? 'Worker',
      surnames: opts.surnames ?? userName,
      email: '',
      badgeCode: opts.badgeCode ?? '',
    },
    password: PASSWORD,
    perms: [
      {
        siteId: api.siteId,
        roles: opts.roles ?? [],
        kioskAcct: opts.kioskAcct ?? false,
        timeclockAcct: opts.timeclockAcct ?? false,
        serviceAcct: false,
      },
    ],
  });
  return userName;
}

let tagCounter = 0;
/** A code no other test (or project) of this run uses: the project's initial, the time and a count. */
export const uniqueTag = (testInfo: TestInfo): string =>
  `${testInfo.project.name[0]!.toUpperCase()}${Date.now().toString(36).toUpperCase()}${++tagCounter}`;

/** The WCAG 2.1 A and AA rules every page is checked against. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The critical and serious violations axe finds on what the page shows now, as "rule: targets". */
export async function seriousAxe(page: Page): Promise<string[]> {
  const analyze = async () => {
    // Mantine's transitions end within 200 ms; axe reads colours as they are at that moment, so a
    // notice fading in or out (opacity below 1) reads as low contrast: wait for every notice to be whole.
    await page.waitForTimeout(300);
    await expect
      .poll(
        () =>
          page.evaluate(() =>
            [...document.querySelectorAll('.mantine-Notification-root')].every((notice) => {
              for (let e: Element | null = notice; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 1) return false;
              return true;
            }),
          ),
        { timeout: 3000 },
      )
      .toBe(true);
    const result = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
    return result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  };
  let found = await analyze();
  // A notice that began to fade while axe read it (its time ran out): read the page once more.
  const inNotices = (v: (typeof found)[number]) =>
    v.nodes.every((n) => n.target.some((t) => String(t).includes('m_3d733a3a') || String(t).includes('Notification')));
  if (found.length > 0 && found.every(inNotices)) found = await analyze();
  return found.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Fails the test when axe finds anything critical or serious on the page as it is now. */
export async function expectAxeClean(page: Page, name = 'the page'): Promise<void> {
  expect(await seriousAxe(page), `axe on ${name}`).toEqual([]);
}

/** A print agent's own key (label/agent/create shows it once); an agent of that id left by an earlier run is revoked first. */
export async function newAgentKey(api: Api, agentId: string, name: string): Promise<string> {
  await api('label/agent/revoke', { agentId }).catch(() => undefined);
  const { agentKey } = (await api('label/agent/create', { agentId, name })) as { agentKey: string };
  return agentKey;
}

/**
 * Typing as a person types: keys 70 ms apart. Playwright's keyboard.type without a delay sends keys
 * as fast as a scanner, and the scan router (docs/scanning.md) rightly takes a fast burst ended by
 * Enter or Tab for a scan, wherever the focus is.
 */
export const HUMAN = { delay: 70 } as const;

const sessions = new WeakMap<Page, CDPSession>();

/** Key events of a character or a terminator, as Chrome's DevTools protocol takes them. */
function keyOf(key: string): { key: string; code?: string; text?: string; windowsVirtualKeyCode?: number } {
  if (key === 'Enter') return { key, code: 'Enter', text: '\r', windowsVirtualKeyCode: 13 };
  if (key === 'Tab') return { key, code: 'Tab', windowsVirtualKeyCode: 9 };
  return { key, text: key };
}

/**
 * One wedge scan (`scan`, at whatever has the focus), then `arrived` awaited: retried as an assertion
 * for up to 45 s on a busy machine, never by scanning again. A scan the page dropped or doubled
 * fails the test; a helper that scanned again until the screen answered hid a dropped scan for many
 * stops (docs/scanning.md, "Duplicate rules").
 */
export async function wedgeScan(page: Page, code: string, arrived: () => Promise<void>): Promise<void> {
  await scan(page, code);
  await expect(arrived).toPass({ timeout: 45_000 });
}

/**
 * A keyboard-wedge scan as a scanner sends it, at whatever has the focus: trusted key events (they
 * type into a focused field, press the focused button, open a focused select, as real keys do) whose
 * timeStamps are the scanner's own, `gapMs` apart (8 ms, a typical wedge), however long the machine
 * takes to deliver them (Chrome's DevTools protocol stamps each event with the time it is given). So
 * a loaded machine cannot break a burst, and a broken one is made on purpose (`stallAfter`: the keys
 * after that many characters come `stallMs` late).
 */
export async function scan(
  page: Page,
  code: string,
  opts: { gapMs?: number; terminator?: 'Enter' | 'Tab'; stallAfter?: number; stallMs?: number } = {},
): Promise<void> {
  const { gapMs = 8, terminator = 'Enter', stallAfter, stallMs = 150 } = opts;
  let cdp = sessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    sessions.set(page, cdp);
  }
  // The page's clock, in seconds since the epoch as the protocol wants it.
  let at = (await page.evaluate(() => performance.timeOrigin + performance.now())) / 1000;
  const keys = [...code, terminator];
  // All the burst's events are sent at once and awaited together: the protocol delivers them in
  // order, and their timeStamps, not the round trips, are what the page sees (a round trip each made
  // a scan take a third of a second, most of the scan matrix's time).
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) at += (stallAfter !== undefined && i === stallAfter ? stallMs : gapMs) / 1000;
    const key = keyOf(keys[i]!);
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...key, timestamp: at }));
    sent.push(
      cdp.send('Input.dispatchKeyEvent', {
        type: 'keyUp',
        key: key.key,
        ...(key.code ? { code: key.code } : {}),
        ...(key.windowsVirtualKeyCode ? { windowsVirtualKeyCode: key.windowsVirtualKeyCode } : {}),
        timestamp: at + 0.002,
      }),
    );
  }
  await Promise.all(sent);
}
