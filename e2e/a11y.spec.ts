import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { fillLogin, login, loginButton, snap, useMachine, AXE_TAGS } from './support.ts';
import { shot } from './order-fixtures.ts';

// axe-core on every page at both sizes (issue 10 item 13): no critical and no serious violation of
// WCAG 2.1 A and AA. Each page is checked once it has drawn its content (the page heading, then no
// loader), and again with the navigation open where it is a drawer.
//
// The same walk once more in Spanish and dark (issue 29: the browser's locale es-ES, its colour
// scheme dark): axe again (the dark colours' contrast), no English text left where Spanish exists,
// and the docs' screenshots of three work screens in that look.

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

async function settle(page: Page): Promise<void> {
  await expect(page.locator('main, [role="main"]').first()).toBeVisible();
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0, { timeout: 15_000 });
}

/** Goes to a page of the app and waits until it has drawn its content. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?.]/g, '\\$&')}$`));
  await settle(page);
}

const ADMIN_PAGES = [
  '/tasks',
  // With stock found (a demo location, in both warehouses): its rows and their badges are checked too.
  '/stockLookup?q=A-01-1',
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

/** ADMIN_PAGES in parts of five (the last may be shorter), each walked by a test of its own. */
const PART = 5;
const ADMIN_PAGE_PARTS = Array.from({ length: Math.ceil(ADMIN_PAGES.length / PART) }, (_, i) =>
  ADMIN_PAGES.slice(i * PART, (i + 1) * PART),
);

const catalogue = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../packages/contract/src/locales/${language}.json`, import.meta.url), 'utf8')) as Record<string, string>;

/**
 * The English texts that have a Spanish of their own (the catalogue's keys are the English text):
 * shown on a Spanish screen, they were not translated. A key es.json lacks (its translation not
 * written yet) or keeps as it is (OK, EA) is not counted.
 */
const UNTRANSLATED: ReadonlySet<string> = (() => {
  const es = catalogue('es');
  return new Set(Object.keys(catalogue('en')).filter((key) => !!es[key] && es[key] !== key));
})();

/**
 * The texts a person sees or hears on the page now: its visible text nodes, placeholders and accessible
 * names; not inside `translate="no"`, which marks the organisation's own words (an order's status as
 * App Settings names it: data, typed the same in the filters, docs/ui.md).
 */
function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts = new Set<string>();
    const add = (text: string | null | undefined) => {
      const t = text?.replace(/\s+/g, ' ').trim();
      if (t) texts.add(t);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent && !parent.closest('script, style, template, [translate="no"]') && parent.checkVisibility({ visibilityProperty: true }))
        add(node.textContent);
    }
    for (const el of document.querySelectorAll('[placeholder], [aria-label]')) {
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      add(el.getAttribute('placeholder'));
      add(el.getAttribute('aria-label'));
    }
    return [...texts];
  });
}

/** The English texts on the page that Spanish translates (UNTRANSLATED). */
async function englishLeaks(page: Page): Promise<string[]> {
  return (await shownTexts(page)).filter((text) => UNTRANSLATED.has(text));
}

/**
 * Words cut off: the control texts (buttons, links, tabs, badges, menu items, labels) wider than the
 * box that clips them, and a page wider than the screen. Spanish runs some 20 % longer than English:
 * a label that fits at 360 px in English may not in Spanish.
 */
function cutOffTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found = new Set<string>();
    const controls = 'button, a, [role="tab"], [role="menuitem"], [role="radio"], label, .mantine-Badge-root';
    // One pass over the page: a box's widths are read from the layout made once; styles only where it overflows.
    for (const box of document.body.querySelectorAll<HTMLElement>('*')) {
      if (box.clientWidth === 0 || box.scrollWidth <= box.clientWidth + 1) continue;
      const style = getComputedStyle(box);
      if (style.overflowX === 'visible' && style.textOverflow !== 'ellipsis') continue;
      const text = box.textContent?.replace(/\s+/g, ' ').trim();
      if (!text || !box.closest(controls) || box.closest('[translate="no"]')) continue;
      if (box.checkVisibility({ visibilityProperty: true })) found.add(text);
    }
    if (document.documentElement.scrollWidth > window.innerWidth + 1)
      found.add(`the page is ${document.documentElement.scrollWidth} px wide on a ${window.innerWidth} px screen`);
    return [...found];
  });
}

/** How a walk shows the app, and what it checks beyond axe. */
interface Look {
  title: string;
  use: { locale?: string; colorScheme?: 'light' | 'dark' };
  /** The screen must be in Spanish, with no English text that has a Spanish. */
  spanish: boolean;
  /** Pages photographed for the docs (docs/screenshots/<name>-<width>.png), by path. */
  shots: ReadonlyMap<string, string>;
}

const LOOKS: readonly Look[] = [
  { title: 'axe-core: 0 critical, 0 serious', use: {}, spanish: false, shots: new Map() },
  {
    title: 'in Spanish and dark (issue 29): axe-core 0 critical, 0 serious, no English left',
    use: { locale: 'es-ES', colorScheme: 'dark' },
    spanish: true,
    shots: new Map([
      ['/stockLookup?q=A-01-1', 'es-dark-stock-lookup'],
      ['/stockPick', 'es-dark-pick-list'],
      ['/physicalInventory', 'es-dark-count-sheets'],
    ]),
  },
];

// The longest file of the suite (7 minutes at 360 px on a slow machine): its tests, each on pages of
// its own, are shared between the two workers instead of run in turn by one.
test.describe.configure({ mode: 'parallel' });

for (const look of LOOKS) {
  test.describe(look.title, () => {
    test.use(look.use);

    /** What is wrong on the page now in this look: axe's serious findings, and English left on a Spanish screen. */
    async function problems(page: Page, testInfo: TestInfo, name: string): Promise<{ axe: Found; english: string[]; cut: string[] }> {
      const axe = await seriousViolations(page, testInfo, name);
      return { axe, english: look.spanish ? await englishLeaks(page) : [], cut: await cutOffTexts(page) };
    }

    /** Checks a page: no serious axe finding, no English left; the language first, once per test. */
    async function expectClean(page: Page, testInfo: TestInfo, name: string): Promise<void> {
      const found = await problems(page, testInfo, name);
      expect(found.axe, `axe on ${name}`).toEqual([]);
      expect(found.english, `English left on ${name}`).toEqual([]);
      expect(found.cut, `Words cut off on ${name}`).toEqual([]);
    }

    /** In the Spanish look the screen says it is Spanish (the browser's locale picks the language). */
    async function expectLanguage(page: Page): Promise<void> {
      if (look.spanish) await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    }

    test('the login page @both', async ({ page }, testInfo) => {
      await useMachine(page);
      await page.goto('/');
      await expect(loginButton(page)).toBeEnabled();
      await expectLanguage(page);
      await expectClean(page, testInfo, 'login');
      // A dialog over it: the refusal of a wrong password.
      await fillLogin(page, 'clerk', { password: 'not-the-password' });
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectClean(page, testInfo, 'login refused');
    });

    // The admin's pages in parts: one walk of all fifteen took up to 2.9 minutes against its 3 on a
    // slow machine (axe, the texts and the widths read on each page).
    ADMIN_PAGE_PARTS.forEach((pages, i) => {
      const last = i === ADMIN_PAGE_PARTS.length - 1;
      test(`every page an admin opens, part ${i + 1} of ${ADMIN_PAGE_PARTS.length} @both`, async ({ page }, testInfo) => {
        test.setTimeout(180_000);
        await useMachine(page);
        await login(page, 'admin');
        await expect(page).toHaveURL(/\/tasks$/);
        await expectLanguage(page);
        const found: Found = [];
        const english: Record<string, string[]> = {};
        const cut: Record<string, string[]> = {};
        const width = page.viewportSize()!.width;
        for (const path of pages) {
          await open(page, path);
          const onPage = await problems(page, testInfo, path);
          found.push(...onPage.axe);
          if (onPage.english.length) english[path] = onPage.english;
          if (onPage.cut.length) cut[path] = onPage.cut;
          const name = look.shots.get(path);
          if (name) await shot(page, testInfo, `${name}-${width}`);
        }
        if (last) {
          // The Workstations tab (search, pairing code, remove buttons).
          await page.goto('/featureAccess');
          await page.getByTestId('tab-workstations').click();
          await expect(page.getByTestId('pair-by-code')).toBeVisible();
          found.push(...(await seriousViolations(page, testInfo, '/featureAccess workstations')));
        }
        expect(found).toEqual([]);
        expect(english, 'English left on the pages').toEqual({});
        expect(cut, 'Words cut off on the pages').toEqual({});
        // The navigation: a drawer at 360 px opened by its burger; always shown at 1440 px (checked above).
        // Opened over the task menu: a list page behind the drawer shows other tests' data (a workstation
        // another test named "Kiosk"), which is no English left by the app.
        if (last && testInfo.project.name === 'mobile') {
          await open(page, '/tasks');
          await page.getByTestId('nav-burger').click();
          await expect(page.getByRole('navigation')).toBeVisible();
          await expectClean(page, testInfo, 'navigation');
        }
      });
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
        await expectLanguage(page);
        await expectClean(page, testInfo, path.slice(1));
      });
    }
  });
}

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
      await open(page, path);
      const outline = await headingOutline(page);
      const problems = outlineProblems(outline);
      const title = (await page.getByTestId('page-title').textContent())?.trim();
      if (outline[0]?.level !== 1 || outline[0].text !== title) problems.push(`the first heading is not the page title "${title}"`);
      if (problems.length) found[path] = problems;
    }
    expect(found).toEqual({});
  });
});
