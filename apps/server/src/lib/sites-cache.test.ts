// Every write tells the organisation's sites what changed after its commit (emitChanged). It used to
// read the sites first, a statement of its own with a pass through the pool's queue on the way to the
// write's answer; under CPU shortage that queue was where a pick confirm's tail came from
// (docs/performance.md). The sites are now remembered for SITES_CACHE_MS: this fails if they are
// read again within it (the clock is passed in, so nothing here depends on how fast the machine is).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sites } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { SITES_CACHE_MS, sitesOf } from './idempotent-write.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('sitesOf', () => {
  it('answers from memory within SITES_CACHE_MS, and reads the sites again after it', async () => {
    const start = 1_000_000;
    const before = await sitesOf(t.db, 'demo', start);
    expect(before).toContain('demo-main');
    // A site added by hand (the API adds none): not seen from memory, seen once the answer is old.
    await t.db.insert(sites).values({ id: 'demo-cache-test', orgId: 'demo', name: 'Cache test' });
    expect(await sitesOf(t.db, 'demo', start + SITES_CACHE_MS - 1)).toEqual(before);
    expect(await sitesOf(t.db, 'demo', start + SITES_CACHE_MS)).toEqual(expect.arrayContaining([...before, 'demo-cache-test']));
  });

  it('keeps organisations apart', async () => {
    expect(await sitesOf(t.db, 'no-such-org', 5)).toEqual([]);
    expect(await sitesOf(t.db, 'demo', 5)).toContain('demo-main');
  });
});
