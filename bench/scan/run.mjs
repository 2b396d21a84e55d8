#!/usr/bin/env node
// Scanning benchmark in Chromium on the production build (npm run build first): decode rate of the
// camera worker on 640x480 frames, and keyboard-wedge scan to screen latency. Starts its own server
// on a free port with a temporary data folder, and stops it at the end. See README.md.
import { startBuiltServer } from '../server.mjs';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import bwipjs from 'bwip-js/node';
import { PNG } from 'pngjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DECODE_SECONDS = Number(process.env.BENCH_DECODE_SECONDS ?? 5);
const WEDGE_SCANS = Number(process.env.BENCH_WEDGE_SCANS ?? 30);
const TARGET = { fps: 15, latencyMs: 50 };
// The overlay's camera settings (CAMERA_DECODE_OPTIONS in apps/web/src/lib/scanning/scanner-controller.ts) and formats (BARCODE_DEFAULTS).
const CAMERA_OPTIONS = { tryHarder: false, tryRotate: true, tryInvert: false, tryDownscale: true, maxNumberOfSymbols: 1 };
const FORMATS = ['CODE_39', 'CODE_93', 'CODE_128', 'QR_CODE'];

const assets = join(root, 'apps/web/dist/assets');
const serverJs = join(root, 'apps/server/dist/server.js');
const asset = (prefix) => existsSync(assets) && readdirSync(assets).find((f) => f.startsWith(prefix) && !f.endsWith('.map'));
if (!asset('decode.worker-') || !asset('zxing_reader-') || !existsSync(serverJs)) {
  console.error('No production build found: run `npm run build` first.');
  process.exit(1);
}

async function startServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'floorhand-bench-'));
  const server = await startBuiltServer({ DATA_DIR: dataDir, DEMO_SEED: 'on', LOG_LEVEL: 'warn', DATABASE_URL: '' });
  return { base: server.base, stop: () => (server.stop(), rmSync(dataDir, { recursive: true, force: true })) };
}

/**
 * A label drawn by bwip-js, centred on a white 640x480 RGBA frame, as base64. `rough` stands in for
 * a handheld camera: the label a little closer (3 px per module), a 3x3 box blur (focus) and
 * seeded grey noise of up to ±40 levels (sensor).
 */
async function frame(options, rough = false) {
  let out = new Uint8Array(640 * 480 * 4).fill(255);
  if (options) {
    const png = PNG.sync.read(
      await bwipjs.toBuffer({ scale: rough ? 3 : 2, paddingwidth: 10, paddingheight: 10, backgroundcolor: 'FFFFFF', ...options }),
    );
    const [left, top] = [Math.floor((640 - png.width) / 2), Math.floor((480 - png.height) / 2)];
    for (let y = 0; y < png.height; y++)
      out.set(png.data.subarray(y * png.width * 4, (y + 1) * png.width * 4), ((top + y) * 640 + left) * 4);
  }
  if (rough) {
    const src = out;
    out = new Uint8Array(src);
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let y = 1; y < 479; y++)
      for (let x = 1; x < 639; x++) {
        let sum = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) sum += src[((y + dy) * 640 + x + dx) * 4];
        const v = Math.max(0, Math.min(255, sum / 9 + (random() * 2 - 1) * 40));
        out.fill(v, (y * 640 + x) * 4, (y * 640 + x) * 4 + 3);
      }
  }
  return Buffer.from(out).toString('base64');
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};
const ms = (n) => `${n.toFixed(1)} ms`;

/** Decodes the frames round-robin in the app's own worker for `seconds`; sequential, as the overlay does. */
function decodeRun(page, frames, options, seconds) {
  return page.evaluate(
    async ({ workerUrl, wasmUrl, frames, options, formats, seconds }) => {
      const worker = new Worker(workerUrl, { type: 'module' });
      const reply = () => new Promise((ok) => worker.addEventListener('message', (e) => ok(e.data), { once: true }));
      worker.postMessage({ type: 'init', wasmUrl: new URL(wasmUrl, location.href).href });
      const ready = await reply();
      if (ready.type !== 'ready') throw new Error(ready.message);
      const pixels = frames.map((f) => ({ ...f, data: Uint8ClampedArray.from(atob(f.data), (c) => c.charCodeAt(0)) }));
      const times = [];
      const reads = Object.fromEntries(frames.map((f) => [f.name, { frames: 0, read: 0 }]));
      const started = performance.now();
      for (let id = 0; performance.now() - started < seconds * 1000; id++) {
        const f = pixels[id % pixels.length];
        const imageData = new ImageData(new Uint8ClampedArray(f.data), 640, 480);
        worker.postMessage({ type: 'frame', id, imageData, formats, options }, [imageData.data.buffer]);
        const r = await reply();
        if (r.type !== 'result') throw new Error(r.message);
        times.push(r.decodeMs);
        reads[f.name].frames++;
        if (r.results.some((x) => x.text === f.expect)) reads[f.name].read++;
      }
      const elapsed = performance.now() - started;
      worker.terminate();
      return { loadMs: ready.loadMs, frames: times.length, elapsed, times, reads };
    },
    {
      workerUrl: `/assets/${asset('decode.worker-')}`,
      wasmUrl: `/assets/${asset('zxing_reader-')}`,
      frames,
      options,
      formats: FORMATS,
      seconds,
    },
  );
}

/**
 * Types each code at scanner speed (5 ms apart, Enter last) at the App Settings page, whose test
 * panel renders each scan. Latency: from the Enter keydown's timestamp to the value in the DOM,
 * and to the next painted frame. Also checks that every scan arrives once.
 */
async function wedgeRun(page, base) {
  await page.addInitScript(() => {
    // Registered before the app's own listeners: the wedge publishes and React renders inside the
    // wedge's keydown listener, so a listener added later would see the Enter after the screen changed.
    window.__bench = { enter: 0, seen: new Map(), samples: [], keys: [] };
    window.addEventListener(
      'keydown',
      (e) => {
        window.__bench.keys.push(e.timeStamp);
        if (e.key === 'Enter') window.__bench.enter = e.timeStamp;
      },
      { capture: true },
    );
    if (!localStorage.getItem('machine_settings'))
      localStorage.setItem(
        'machine_settings',
        JSON.stringify({ state: { workstation: { id: 'WS0001', timeclockOnly: false, kioskOnly: false } }, version: 0 }),
      );
  });
  await page.goto(`${base}/`);
  await page.getByLabel('Account').fill('clerk');
  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/tasks$/);
  await page.goto(`${base}/appSettings`);
  await page.getByTestId('test-scan-panel').waitFor();
  await page.evaluate(() => {
    const w = window;
    new MutationObserver((records) => {
      const now = performance.now();
      for (const r of records)
        for (const node of r.addedNodes) {
          const value =
            node instanceof Element &&
            (node.matches('[data-testid=test-scan-value]') ? node : node.querySelector('[data-testid=test-scan-value]'));
          if (!value) continue;
          const text = value.textContent;
          w.__bench.seen.set(text, (w.__bench.seen.get(text) ?? 0) + 1);
          const enter = w.__bench.enter;
          requestAnimationFrame(() => w.__bench.samples.push({ text, render: now - enter, paint: performance.now() - enter }));
        }
    }).observe(document.body, { childList: true, subtree: true });
  });
  const codes = Array.from({ length: WEDGE_SCANS }, (_, i) => `BENCH-${String(i + 1).padStart(4, '0')}`);
  // Playwright sends a key only after the page handled the last, so on a busy machine a gap can pass
  // the 40 ms wedge window, which a hardware scanner never does: such scans are counted apart.
  const slow = [];
  for (const code of codes) {
    await page.evaluate(() => (window.__bench.keys = []));
    await page.keyboard.type(code, { delay: 5 });
    await page.keyboard.press('Enter');
    await page.waitForFunction((c) => window.__bench.samples.some((s) => s.text === c), code, { timeout: 5000 }).catch(() => undefined);
    const gap = await page.evaluate(() => Math.max(...window.__bench.keys.slice(1).map((t, i) => t - window.__bench.keys[i])));
    if (gap > 40) slow.push(code);
    // A pause longer than the wedge gap between scans, as between two labels.
    await page.waitForTimeout(60);
  }
  const { samples, seen } = await page.evaluate(() => ({ samples: window.__bench.samples, seen: [...window.__bench.seen] }));
  const counts = new Map(seen);
  return {
    samples,
    slow,
    missed: codes.filter((c) => !counts.has(c) && !slow.includes(c)),
    doubled: codes.filter((c) => (counts.get(c) ?? 0) > 1),
  };
}

const server = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${server.base}/`);
  const frames = [
    { name: 'CODE_128', expect: 'STK-000042', data: await frame({ bcid: 'code128', text: 'STK-000042', height: 12 }) },
    { name: 'QR_CODE', expect: 'LOC|A-12-03|WH1', data: await frame({ bcid: 'qrcode', text: 'LOC|A-12-03|WH1' }) },
    { name: 'CODE_128 blurred+noisy', expect: 'STK-000042', data: await frame({ bcid: 'code128', text: 'STK-000042', height: 12 }, true) },
    { name: 'empty', expect: null, data: await frame(null) },
  ];

  console.log(`Decode in the worker, 640x480 frames (${frames.map((f) => f.name).join(', ')}), formats ${FORMATS.join(' ')}`);
  for (const [label, options, seconds] of [
    ['overlay settings', CAMERA_OPTIONS, DECODE_SECONDS],
    ['zxing defaults', {}, Math.max(1, DECODE_SECONDS / 2)],
  ]) {
    const r = await decodeRun(page, frames, options, seconds);
    const fps = (r.frames * 1000) / r.elapsed;
    const rates = Object.entries(r.reads)
      .map(([name, x]) => `${name} ${name === 'empty' ? `${x.frames} frames` : `${x.read}/${x.frames} read`}`)
      .join(', ');
    console.log(
      `  ${label.padEnd(17)} ${fps.toFixed(1).padStart(6)} fps  decode p50 ${ms(percentile(r.times, 50))}, p95 ${ms(percentile(r.times, 95))}; wasm ready in ${ms(r.loadMs)}; ${rates}`,
    );
    if (label === 'overlay settings') {
      const ok = fps >= TARGET.fps;
      failed ||= !ok;
      console.log(`  -> ${ok ? 'meets' : 'BELOW'} the target of ${TARGET.fps} fps`);
    }
  }

  const wedge = await wedgeRun(await browser.newPage({ viewport: { width: 1440, height: 900 } }), server.base);
  const render = wedge.samples.map((s) => s.render);
  const paint = wedge.samples.map((s) => s.paint);
  console.log(`Keyboard wedge, ${WEDGE_SCANS} scans typed 5 ms apart, Enter to screen`);
  console.log(`  in the DOM     p50 ${ms(percentile(render, 50))}, p95 ${ms(percentile(render, 95))}`);
  console.log(`  painted        p50 ${ms(percentile(paint, 50))}, p95 ${ms(percentile(paint, 95))}`);
  console.log(
    `  missed ${wedge.missed.length}, doubled ${wedge.doubled.length}${wedge.missed.length ? ` (missed: ${wedge.missed.join(', ')})` : ''}`,
  );
  if (wedge.slow.length)
    console.log(`  not typed at scanner speed (a key gap over 40 ms, machine busy), not counted: ${wedge.slow.length}`);
  const ok = percentile(paint, 95) < TARGET.latencyMs && !wedge.missed.length && !wedge.doubled.length;
  failed ||= !ok;
  console.log(`  -> ${ok ? 'meets' : 'MISSES'} the target of < ${TARGET.latencyMs} ms (p95, painted) with every scan once`);
} finally {
  await browser.close();
  server.stop();
}
process.exitCode = failed ? 1 : 0;
