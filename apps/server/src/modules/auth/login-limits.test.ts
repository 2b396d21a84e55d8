import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERR } from '@floorhand/contract/errors';
import { call, createSecondNode, createTestApp, uniqueIp, type TestApp } from '../../test/harness.ts';
import { demoLogin } from '../../test/logins.ts';

// The login limits with their defaults (10 failures per account from any address, 30 per address for
// any names, 5 per address and account), through the API; with REDIS_URL, across two nodes.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '10', LOGIN_MAX_FAILURES_PER_ADDRESS: '30' });
});
afterAll(() => t?.close());

const attempt = (app: TestApp['app'], userName: string, password: string, ip: string) =>
  call(app, 'auth/login', { userName, password, workstationId: 'W1' }, undefined, { ip });

describe('login limits', () => {
  it('gives one account 10 guesses in all, from 30 addresses; then even the right password waits', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await attempt(t.app, 'clerk', 'wrong-password', uniqueIp())).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    const right = await attempt(t.app, 'clerk', 'demo1234', uniqueIp());
    expect(right.status).toBe(429);
    expect(right.body.err).toMatchObject({ code: ERR.rateLimited, message: expect.stringMatching(/minute/) });
    // Other accounts are not affected.
    await demoLogin(t.app, 'admin');
  });

  it('gives one address 30 failures across made-up names, then refuses it any name', async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await attempt(t.app, `made-up-${i}`, 'x', ip)).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect((await attempt(t.app, 'tcadmin', 'demo1234', ip)).status).toBe(429);
    // Another address is not affected.
    await demoLogin(t.app, 'tcadmin');
  });

  it.runIf(process.env.REDIS_URL)('counts failures on every node: a lock made on one holds on the other', async () => {
    const second = await createSecondNode(t);
    try {
      for (let i = 0; i < 5; i++) expect((await attempt(t.app, 'kiosk', 'wrong', uniqueIp())).status).toBe(401);
      for (let i = 0; i < 5; i++) expect((await attempt(second.app, 'kiosk', 'wrong', uniqueIp())).status).toBe(401);
      expect((await attempt(second.app, 'kiosk', 'demo1234', uniqueIp())).status).toBe(429);
      expect((await attempt(t.app, 'kiosk', 'demo1234', uniqueIp())).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});
