import { chromium, expect, test, type Page, type TestInfo } from '@playwright/test';
import { PNG } from 'pngjs';
import { barcodePng, tiltedPng, writeFakeCamera } from './fixtures/make-fake-camera.ts';
import { dialog, HUMAN, login, scan, snap, useMachine } from './support.ts';

// All digits, so CODE_128 packs it small enough for the scan box of a 360 px phone (the middle
// 230 px of a 640x480 frame), and the lookup must keep it as text.
const LABEL = '4711000042';
const overlay = (page: Page) => page.getByTestId('scanner-overlay');
/** On a machine without a camera the scanner opens with Camera missing: wait for it (the scanner and the dialogs are chunks loaded on first use), then close it with Escape. */
async function dismissCameraMissing(page: Page) {
  await expect(dialog(page, 'Camera missing')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog(page, 'Camera missing')).toBeHidden();
}
const rows = (page: Page) => page.getByTestId('test-scan-row');

/** A screenshot of what is on screen (the overlay is fixed to the viewport, so no full page). */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/**
 * The first key of a session refreshes the token (activity), and Playwright sends each key only
 * after the page handled the last, so that first key could be late by more than the 40 ms wedge
 * gap. A hardware scanner's keys carry their own timestamps; here the activity is let pass first.
 */
async function settle(page: Page) {
  await page.keyboard.press('Shift');
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(200);
}

/** Chromium with a fake camera that films `file`; same binary, flags and viewport as the project. */
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

/** Picks the fake camera as barcode camera in App Settings (asking for permission first if needed). */
async function chooseCamera(page: Page, testId: string) {
  const allow = page.getByTestId('camera-allow').first();
  if (await allow.isVisible()) await allow.click();
  const select = page.getByTestId(testId);
  await expect(select.locator('option')).toHaveCount(2);
  await select.selectOption({ index: 1 });
  await expect(page.getByTestId('camera-preview').locator('video').first()).toBeVisible();
}

test.describe('camera', () => {
  test('a fake camera reads a CODE_128 label through the overlay @mobile', async ({ baseURL }, testInfo) => {
    const { browser, page } = await cameraBrowser(testInfo, baseURL, await writeFakeCamera(LABEL));
    try {
      await useMachine(page);
      await login(page, 'clerk');
      await expect(page).toHaveURL(/\/tasks$/);
      await page.goto('/appSettings');
      await chooseCamera(page, 'barcode-cam');
      await page.getByTestId('save-settings').click();
      await snap(page, testInfo, 'app-settings-camera');

      // Unsaved choices are what the test scan uses: without CODE_128 the label stays unread.
      await page.getByTestId('barcode-formats').getByText('CODE_128', { exact: true }).click();
      await page.getByTestId('test-scan-camera').click();
      await expect(overlay(page)).toHaveAttribute('data-state', 'scanning');
      await page.waitForTimeout(1500);
      await expect(overlay(page)).toHaveAttribute('data-state', 'scanning');
      await shot(page, testInfo, 'overlay-scanning');
      await page.getByTestId('scanner-close').click();
      await expect(overlay(page)).toBeHidden();

      // The saved settings read it, from the header's scan button on the home screen.
      await page.goto('/tasks');
      await expect(page).toHaveURL(/\/tasks$/);
      await page.getByTestId('header-scan').click();
      await expect(page).toHaveURL(new RegExp(`/stockLookup\\?q=${LABEL}$`));
      await expect(page.getByTestId('lookup-val')).toHaveText(`Looking up: ${LABEL}`);
      await expect(overlay(page)).toBeHidden();
    } finally {
      await browser.close();
    }
  });

  test('the test scan shows a camera read with its source and time', async ({ baseURL }, testInfo) => {
    const { browser, page } = await cameraBrowser(testInfo, baseURL, await writeFakeCamera(LABEL));
    try {
      await useMachine(page);
      await login(page, 'clerk');
      await expect(page).toHaveURL(/\/tasks$/);
      await page.goto('/appSettings');
      await chooseCamera(page, 'barcode-cam');
      await page.getByTestId('test-scan-camera').click();
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page).first()).toHaveAttribute('data-source', 'camera');
      await expect(rows(page).first()).toContainText(LABEL);
      await expect(rows(page).first()).toContainText('CODE_128');
      await expect(rows(page).first()).toContainText(/\d+(\.\d)? m?s/);
      await expect(overlay(page)).toBeHidden();
    } finally {
      await browser.close();
    }
  });

  test('a photo from the photo camera is uploaded and shown', async ({ baseURL }, testInfo) => {
    const { browser, page } = await cameraBrowser(testInfo, baseURL, await writeFakeCamera(LABEL));
    try {
      await useMachine(page);
      await login(page, 'clerk');
      await expect(page).toHaveURL(/\/tasks$/);
      await page.goto('/appSettings');
      await chooseCamera(page, 'photo-cam');
      await page.getByTestId('test-photo').click();
      await expect(page.getByTestId('photo-shoot')).toBeEnabled();
      await page.getByTestId('photo-shoot').click();
      const photo = page.getByTestId('test-photo-result');
      await expect(photo).toBeVisible();
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
    } finally {
      await browser.close();
    }
  });
});

test.describe('without a camera', () => {
  test('Camera missing when no camera is configured, with a way to App Settings @mobile', async ({ page }, testInfo) => {
    await useMachine(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.getByTestId('header-scan').click();
    const missing = dialog(page, 'Camera missing');
    await expect(missing).toBeVisible();
    await expect(missing).toContainText('No camera has been configured for this device');
    await expect(overlay(page)).toBeVisible();
    await shot(page, testInfo, 'camera-missing');
    await missing.getByRole('button', { name: 'App Settings' }).click();
    await expect(page).toHaveURL(/\/appSettings$/);
    await expect(overlay(page)).toBeHidden();
    await snap(page, testInfo, 'app-settings');
  });

  test('an image file picked in the overlay is decoded @mobile', async ({ page }, testInfo) => {
    await useMachine(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.getByTestId('header-scan').click();
    await expect(dialog(page, 'Camera missing')).toBeVisible();
    // Escape closes the dialog only; the overlay stays for the file.
    await page.keyboard.press('Escape');
    await expect(dialog(page, 'Camera missing')).toBeHidden();
    await expect(overlay(page)).toBeVisible();
    await shot(page, testInfo, 'overlay-no-camera');
    await page
      .getByTestId('scanner-file-input')
      .setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: await barcodePng('LOC-A-17') });
    await expect(page).toHaveURL(/\/stockLookup\?q=LOC-A-17$/);
    await expect(page.getByTestId('lookup-val')).toHaveText('Looking up: LOC-A-17');
    await expect(overlay(page)).toBeHidden();
  });

  test('without a camera, Camera missing leads straight to an image file @mobile', async ({ page }, testInfo) => {
    await useMachine(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.getByTestId('header-scan').click();
    await expect(dialog(page, 'Camera missing')).toBeVisible();
    await shot(page, testInfo, 'camera-missing-image-file');
    const chooser = page.waitForEvent('filechooser');
    await dialog(page, 'Camera missing').getByRole('button', { name: 'Image file' }).click();
    await (await chooser).setFiles({ name: 'label.png', mimeType: 'image/png', buffer: await barcodePng('LOC-A-17') });
    await expect(page).toHaveURL(/\/stockLookup\?q=LOC-A-17$/);
    await expect(overlay(page)).toBeHidden();
  });

  test('an image of a switched-off format says which format it saw, and nothing is looked up', async ({ page }) => {
    await useMachine(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.getByTestId('header-scan').click();
    await dismissCameraMissing(page);
    // EAN_13 is not among the default formats (CODE_39, CODE_93, CODE_128, QR_CODE).
    await page
      .getByTestId('scanner-file-input')
      .setInputFiles({ name: 'ean.png', mimeType: 'image/png', buffer: await barcodePng('5901234123457', 'ean13') });
    await expect(page.getByTestId('scanner-message')).toHaveText(
      'The image has a barcode of format EAN_13, but EAN_13 is switched off in App Settings (Barcode formats).',
    );
    await expect(overlay(page)).toBeVisible();
    await expect(page).toHaveURL(/\/tasks$/);
  });

  test('with EAN_13 and UPC_A on, a UPC-A label reads as UPC_A with 12 digits; a tilted ITF-14 reads whole', async ({ page }) => {
    await useMachine(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/appSettings');
    for (const format of ['EAN_13', 'UPC_A', 'ITF']) await page.getByTestId('barcode-formats').getByText(format, { exact: true }).click();
    await page.getByTestId('test-scan-camera').click();
    await dismissCameraMissing(page);
    await page
      .getByTestId('scanner-file-input')
      .setInputFiles({ name: 'upc.png', mimeType: 'image/png', buffer: await barcodePng('036000291452', 'upca') });
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('036000291452');
    await expect(rows(page).first()).toContainText('UPC_A');
    await expect(rows(page).first()).not.toContainText('0036000291452');
    await page.getByTestId('test-scan-camera').click();
    await dismissCameraMissing(page);
    await page
      .getByTestId('scanner-file-input')
      .setInputFiles({ name: 'itf.png', mimeType: 'image/png', buffer: await tiltedPng('15400141288763', 'interleaved2of5', 20) });
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).first()).toContainText('15400141288763');
    await expect(rows(page).first()).toContainText('ITF');
  });

  test('an image without a barcode says so and leaves the overlay open', async ({ page }) => {
    await useMachine(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.getByTestId('header-scan').click();
    await dismissCameraMissing(page);
    const blank = new PNG({ width: 40, height: 40 });
    blank.data.fill(255);
    await page.getByTestId('scanner-file-input').setInputFiles({ name: 'blank.png', mimeType: 'image/png', buffer: PNG.sync.write(blank) });
    await expect(page.getByTestId('scanner-message')).toHaveText(
      'No barcode was found in the image. If it has one, its format may be switched off in App Settings.',
    );
    await page.keyboard.press('Escape');
    await expect(overlay(page)).toBeHidden();
    await expect(page).toHaveURL(/\/tasks$/);
  });
});

test.describe('keyboard wedge', () => {
  type Keys = { __keys: number[] };
  /** Keydown timestamps, recorded before the app's own listeners. */
  const recordKeys = (page: Page) =>
    page.addInitScript(() => addEventListener('keydown', (e) => ((window as unknown as Keys).__keys ??= []).push(e.timeStamp), true));

  /**
   * Types a code at scanner speed (10 ms apart, Enter last). Playwright sends a key only after the
   * page handled the last one, so on a busy machine a gap can pass the 40 ms wedge window (spec
   * section 9), which a hardware scanner, whose keys carry their own timestamps, never does. So the
   * real gaps are checked: a try that was not at scanner speed is undone with `reset` and repeated,
   * and after five the test is skipped as "machine too busy" rather than failed.
   */
  async function scanAtSpeed(page: Page, code: string, reset: () => Promise<unknown>, settleFirst = true) {
    let gaps: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      if (settleFirst) await settle(page);
      await page.evaluate(() => ((window as unknown as Keys).__keys = []));
      await page.keyboard.type(code, { delay: 10 });
      await page.keyboard.press('Enter');
      gaps = await page.evaluate(() =>
        (window as unknown as Keys).__keys.slice(1).map((t, i) => t - (window as unknown as Keys).__keys[i]!),
      );
      if (Math.max(...gaps) <= 40) return;
      await reset();
    }
    test.skip(true, `the machine was too busy to type at scanner speed (last gaps ${gaps.map(Math.round).join(', ')} ms)`);
  }

  test('a wedge scan arrives once; human typing is no scan @mobile', async ({ page }) => {
    await useMachine(page);
    await recordKeys(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    await page.goto('/appSettings');
    await expect(page.getByTestId('test-scan-empty')).toBeVisible();
    await scanAtSpeed(page, 'WEDGE-12345', async () => {
      await page.reload();
      await expect(page.getByTestId('test-scan-empty')).toBeVisible();
    });
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toHaveAttribute('data-source', 'wedge');
    await expect(page.getByTestId('test-scan-value')).toHaveText(['WEDGE-12345']);

    await page.keyboard.type('HUMAN1', { delay: 100 });
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    await expect(rows(page)).toHaveCount(1);

    // In the scan field a burst is a wedge scan like anywhere else, once, and the field is left empty;
    // what a person types there and sends with Enter is the field's entry.
    await page.getByTestId('test-scan-input').click();
    await scan(page, 'FIELD-777');
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).first()).toHaveAttribute('data-source', 'wedge');
    await expect(page.getByTestId('test-scan-input')).toHaveValue('');
    await page.keyboard.type('TYPED-5', HUMAN);
    await page.keyboard.press('Enter');
    await expect(rows(page)).toHaveCount(3);
    await expect(rows(page).first()).toHaveAttribute('data-source', 'input');
    await expect(page.getByTestId('test-scan-value')).toHaveText(['TYPED-5', 'FIELD-777', 'WEDGE-12345']);
    await expect(page.getByTestId('test-scan-input')).toHaveValue('');
  });

  test('a wedge scan on the home screen opens Stock Lookup with the value', async ({ page }) => {
    await useMachine(page);
    await recordKeys(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    await scanAtSpeed(page, '12345', () => page.goto('/tasks'));
    await expect(page).toHaveURL(/\/stockLookup\?q=12345$/);
    // Read raw: the number-looking value stays text.
    await expect(page.getByTestId('lookup-val')).toHaveText('Looking up: 12345');
    // A second scan on the lookup screen looks that up instead.
    await scanAtSpeed(page, 'PALLET 9', () => page.goto('/stockLookup?q=12345'));
    await expect(page.getByTestId('lookup-val')).toHaveText('Looking up: PALLET 9');
  });

  test('a wedge scan that wakes the screen saver arrives whole @mobile', async ({ page }) => {
    // Each try at scanner speed waits for the saver again: several tries on a busy machine take minutes.
    test.setTimeout(180_000);
    // The screen saver comes after 3 s idle here, so it may well come back while the test looks.
    await useMachine(page, { screenSaver: 0.05 });
    await recordKeys(page);
    await login(page, 'clerk');
    await expect(page).toHaveURL(/\/tasks$/);
    const asleep = async () => {
      await page.goto('/tasks');
      await expect(page.getByTestId('screen-saver')).toBeVisible({ timeout: 15_000 });
    };
    await asleep();
    await scanAtSpeed(page, 'A-01-3', asleep, false);
    await expect(page).toHaveURL(/\/stockLookup\?q=A-01-3$/);
    await expect(page.getByTestId('lookup-val')).toHaveText('Looking up: A-01-3');
    // And on the lookup screen with its scan field focused (at 360 px the field is not focused on
    // arrival, so the soft keyboard stays down: focused here without an input event, which would
    // reset the idle timer).
    const asleepOnLookup = async () => {
      await page.goto('/stockLookup');
      await page.getByTestId('lookup-input').focus();
      await expect(page.getByTestId('screen-saver')).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId('lookup-input')).toBeFocused();
    };
    await asleepOnLookup();
    // The scan field takes the keys itself (no wedge timing here): every key must reach it.
    await page.keyboard.type('S000000007', { delay: 10 });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('lookup-val')).toHaveText('Looking up: S000000007');
  });
});
