import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/harness.ts';

// Security headers on every answer (issue 10 item 5): a strict script policy, no framing, no sniffing.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('security headers', () => {
  it.each([
    ['an API call', 'POST', '/api/site/resolve'],
    ['the health check', 'GET', '/api/health'],
    ['the API docs', 'GET', '/api/docs/'],
    ['an unknown path', 'GET', '/api/nope'],
  ])('are sent with %s', async (_what, method, url) => {
    const res = await t.app.inject({
      method: method as 'GET' | 'POST',
      url,
      payload: method === 'POST' ? { locId: 't', siteId: '', appId: 'floorhand', orgId: 'demo', hostname: 'localhost' } : undefined,
    });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-eval'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toMatch(/object-src 'none'/);
    // The installed app: its service worker (/sw.js) and its manifest, from our origin only.
    expect(csp).toMatch(/worker-src 'self'/);
    expect(csp).toMatch(/manifest-src 'self'(;|$)/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
