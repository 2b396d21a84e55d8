// Renders the installed app's icons (apps/web/public/icons/*.png) from the brand's favicon.svg, once;
// the PNGs are committed, so the build does not need a browser. Run again after the favicon changes:
//   node scripts/render-icons.mjs
// Uses Playwright's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) to draw the SVG at each size.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC = join(ROOT, 'apps', 'web', 'public');
const favicon = readFileSync(join(PUBLIC, 'favicon.svg'), 'utf8');

/** The favicon's colour and glyph, read from the file so the icons follow the brand's SVG. */
const background = /<rect[^>]*fill="(#[0-9a-f]{3,6})"/i.exec(favicon)?.[1] ?? '#1f6f8b';
const glyph = /<g[\s\S]*<\/g>/.exec(favicon)?.[0];
if (!glyph) throw new Error('favicon.svg: no <g> glyph found');

/**
 * A full-bleed square with the glyph inside the maskable safe zone (the centre circle of 80 % of the
 * width, https://w3c.github.io/manifest/#icon-masks): launchers crop it to their own shape, and iOS
 * rounds apple-touch-icon corners itself (a transparent corner shows black there).
 */
const fullBleed = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 50 50">
  <rect width="50" height="50" fill="${background}"/>
  <g transform="translate(25 25) scale(0.6) translate(-25 -26)">${glyph}</g>
</svg>`;

const ICONS = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'maskable-512.png', size: 512, svg: fullBleed },
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  mkdirSync(join(PUBLIC, 'icons'), { recursive: true });
  for (const { file, size, svg } of ICONS) {
    await page.setViewportSize({ width: size, height: size });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}img{display:block}</style><img src="${src}" width="${size}" height="${size}">`,
    );
    await page.locator('img').evaluate((img) => (img instanceof HTMLImageElement ? img.decode() : undefined));
    const png = await page.locator('img').screenshot({ omitBackground: true });
    writeFileSync(join(PUBLIC, 'icons', file), png);
    console.log(`icons/${file}: ${size}x${size}, ${png.length} bytes`);
  }
} finally {
  await browser.close();
}
