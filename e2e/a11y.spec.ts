import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { fillLogin, login, snap, useMachine, AXE_TAGS } from './support.ts';

// axe-core on every page at both sizes (issue 10 item 13): no critical and no serious violation of
// WCAG 2.1 A and AA. Each page is checked once it has drawn its content (the page heading, then no
// loader), and again with the navigation open where it is a drawer.

type Found = Array<{ page: string; id: string; impact: string | null | undefined; help: string; nodes: string[] }>;

/** The critical and serious violations axe finds on what the page shows now. */
async function seriousViolations(page: Page, testInfo: TestInfo, name: string): Promise<Found> {
  // Mantine's transitions end within 200 ms; axe reads colours as they are at that moment.
  await page.waitForTimeout(300);
  const result = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => ({
      page: name,
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  if (bad.length > 0) await snap(page, testInfo, `axe-${name.replace(/\W/g, '-')}`);
  return bad;
}

async function expectNoSeriousViolations(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  expect(await seriousViolations(page, testInfo, name), `axe on ${name}`).toEqual([]);
}

async function settle(page: Page): Promise<void> {
  await expect(page.locator('main, [role="main"]').first()).toBeVisible();
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0, { timeout: 15_000 });
}

const ADMIN_PAGES = [
  '/tasks',
  '/stockLookup',
  '/stockAdjust',
  '/stockAdjust/S000000007',
  '/location',
  '/userAcct',
  '/userRoles',
  '/featureAccess',
  '/appSettings',
  '/singleTask',
  '/shipping',
  '/stockPick',
  '/physicalInventory',
  '/labelPrinter',
  '/batchTask',
];

test.describe('axe-core: 0 critical, 0 serious', () => {
  test('the login page @both', async ({ page }, testInfo) => {
    await useMachine(page);
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
    await expectNoSeriousViolations(page, testInfo, 'login');
    // A dialog over it: the refusal of a wrong password.
    await fillLogin(page, 'clerk', { password: 'not-the-password' });
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousViolations(page, testInfo, 'login refused');
  });

  test('every page an admin opens @both', async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await useMachine(page);
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/tasks$/);
    const found: Found = [];
    for (const path of ADMIN_PAGES) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await settle(page);
      found.push(...(await seriousViolations(page, testInfo, path)));
    }
    // The Workstations tab (search, pairing code, remove buttons).
    await page.goto('/featureAccess');
    await page.getByTestId('tab-workstations').click();
    await expect(page.getByTestId('pair-by-code')).toBeVisible();
    found.push(...(await seriousViolations(page, testInfo, '/featureAccess workstations')));
    expect(found).toEqual([]);
    // The navigation: a drawer at 360 px opened by its burger; always shown at 1440 px (checked above).
    if (testInfo.project.name === 'mobile') {
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await expect(page.getByRole('navigation')).toBeVisible();
      await expectNoSeriousViolations(page, testInfo, 'navigation');
    }
  });

  for (const [user, path] of [
    ['kiosk', '/kiosk'],
    ['clock', '/timeclock'],
  ] as const) {
    test(`the ${path.slice(1)} page, as ${user} @both`, async ({ page }, testInfo) => {
      await useMachine(page);
      await login(page, user);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await settle(page);
      await expectNoSeriousViolations(page, testInfo, path.slice(1));
    });
  }
});

/** The levels of the headings the page shows, in document order, with their text. */
async function headingOutline(page: Page): Promise<Array<{ level: number; text: string }>> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]')]
      .filter((el) => el.offsetParent !== null || getComputedStyle(el).position === 'fixed')
      .map((el) => ({
        level: Number(el.getAttribute('aria-level') ?? el.tagName.slice(1)),
        text: (el.textContent ?? '').trim().slice(0, 40),
      })),
  );
}

/** What is wrong with an outline: not one h1, or a level skipped on the way down (h1 then h3). */
function outlineProblems(outline: Array<{ level: number; text: string }>): string[] {
  const problems: string[] = [];
  const h1s = outline.filter((h) => h.level === 1);
  if (h1s.length !== 1) problems.push(`${h1s.length} h1 (${h1s.map((h) => h.text).join(', ')})`);
  let previous = 0;
  for (const h of outline) {
    if (h.level > previous + 1) problems.push(`h${previous} then h${h.level} "${h.text}"`);
    previous = h.level;
  }
  return problems;
}

test.describe('headings (issue 24 item 6)', () => {
  test('every page an admin opens has one h1, the page title, and no level skipped @both', async ({ page }) => {
    test.setTimeout(180_000);
    await useMachine(page);
    await login(page, 'admin');
    await expect(page).toHaveURL(/\/tasks$/);
    const found: Record<string, string[]> = {};
    for (const path of ADMIN_PAGES) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await settle(page);
      const outline = await headingOutline(page);
      const problems = outlineProblems(outline);
      const title = (await page.getByTestId('page-title').textContent())?.trim();
      if (outline[0]?.level !== 1 || outline[0].text !== title) problems.push(`the first heading is not the page title "${title}"`);
      if (problems.length) found[path] = problems;
    }
    expect(found).toEqual({});
  });
});
