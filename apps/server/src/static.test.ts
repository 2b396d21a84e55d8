import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlOf } from './app.ts';
import { createTestApp, type TestApp } from './test/harness.ts';

// The built web app as the server sends it: precompressed files for browsers that take them, hashed
// assets cached for good, everything else asked for again (apps/web/vite.config.ts writes the .br/.gz).

const dir = mkdtempSync(join(tmpdir(), 'floorhand-static-'));
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const sw = `self.addEventListener('fetch', () => {});${' '.repeat(2000)}`;
let t: TestApp;
let production: TestApp | undefined;

beforeAll(async () => {
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Floorhand</title>');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'sw.js'), sw);
  writeFileSync(join(dir, 'sw.js.br'), brotliCompressSync(sw));
  writeFileSync(join(dir, 'manifest.webmanifest'), JSON.stringify({ name: 'Floorhand', start_url: '/', display: 'standalone' }));
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), script);
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.br'), brotliCompressSync(script));
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.gz'), gzipSync(script));
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.map'), '{"version":3,"sources":["src/secret.ts"]}');
  t = await createTestApp({ WEB_DIST: dir });
});
afterAll(async () => {
  await t?.close();
  await production?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the built web app', () => {
  it('sends brotli to a browser that accepts it, with Vary, and caches the hashed asset for a year', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode, res.payload).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(script.length / 10);
  });

  it('sends gzip when brotli is not accepted, and the raw file when nothing is', async () => {
    const gz = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const raw = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.payload).toBe(script);
    expect(raw.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('asks again for the page itself and for unhashed files, so a new release is seen at the next load', async () => {
    for (const url of ['/', '/tasks', '/stockLookup?value=A-01-1', '/favicon.svg']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('asks again for the service worker and the manifest every time, with their own content types (issue 27 item 1)', async () => {
    const worker = await t.app.inject({ method: 'GET', url: '/sw.js', headers: { 'accept-encoding': 'br' } });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(worker.headers['content-encoding']).toBe('br');
    const manifest = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.json()).toMatchObject({ name: 'Floorhand', display: 'standalone' });
    expect(cacheControlOf('/srv/web/sw.js')).toBe('no-cache');
  });

  it('names the cache rule by the path alone', () => {
    expect(cacheControlOf('/srv/web/assets/index-AbC123.js')).toMatch(/immutable/);
    expect(cacheControlOf('C:\\web\\assets\\x.css')).toMatch(/immutable/);
    expect(cacheControlOf('/srv/web/index.html')).toBe('no-cache');
    expect(cacheControlOf('/srv/web/logo.svg')).toBe('no-cache');
  });
});

describe('source maps and API caching', () => {
  it('serves source maps in development, and not in production unless SOURCE_MAPS=on', async () => {
    const dev = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js.map' });
    expect(dev.statusCode).toBe(200);
    production = await createTestApp({ WEB_DIST: dir, NODE_ENV: 'production' });
    for (const url of ['/assets/index-AbC123.js.map', '/assets/index-AbC123.js.map?x=1', '/assets/INDEX-ABC123.JS.MAP', '/nothing.map']) {
      const res = await production.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.payload, url).not.toContain('secret.ts');
      expect(res.json().err.code, url).toBe('ERR_NOT_FOUND');
    }
    // The app itself is still served.
    expect((await production.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' })).statusCode).toBe(200);
  });

  it('marks every API answer no-store: data, errors and unknown calls alike', async () => {
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'POST', url: '/api/site/resolve', payload: {} }),
      await t.app.inject({ method: 'POST', url: '/api/stock/lookup', payload: {} }),
      await t.app.inject({ method: 'POST', url: '/api/no/such/call', payload: {} }),
    ]) {
      expect(res.headers['cache-control'], res.raw.req.url).toBe('no-store');
    }
  });
});
