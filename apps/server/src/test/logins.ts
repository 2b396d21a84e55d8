import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { CallResponse } from '@floorhand/contract/api';
import { accounts } from '../db/schema.ts';
import { ACME, ACME_BASE, call, loginAs, uniqueIp, type LoginOptions, type TestApp } from './harness.ts';

// The demo logins of the API tests (db/seed.ts: admin, clerk, kiosk, clock, tcadmin, svc; all with
// DEMO.password), each from a client address of its own so the login limiter never counts one test's
// logins against another's.

/** Logs a demo account in (loginAs, from a fresh address unless `opts.ip` says otherwise). */
export function demoLogin(
  app: FastifyInstance,
  userName: string,
  opts: LoginOptions = {},
): Promise<{ token: string; login: CallResponse<'auth/login'> }> {
  return loginAs(app, userName, { ip: uniqueIp(), ...opts });
}

/** The auth token of a demo account. */
export async function tokenFor(app: FastifyInstance, userName: string, opts: LoginOptions = {}): Promise<string> {
  return (await demoLogin(app, userName, opts)).token;
}

/** The token of the other organisation's admin (createAcme must have run). */
export const acmeAdminToken = (app: FastifyInstance): Promise<string> => tokenFor(app, ACME.adminUserName, { base: ACME_BASE });

/** A new API key of the demo service account `svc`, issued by an admin; and that account's id. */
export async function serviceApiKey(t: TestApp, adminToken: string): Promise<{ key: string; id: string }> {
  const [svc] = await t.db.select().from(accounts).where(eq(accounts.userName, 'svc'));
  const res = await call(t.app, 'admin/account/issueApiKey', { accountId: svc!.id }, adminToken);
  if (res.status !== 200 || !res.body.apiKey) throw new Error(`issuing an API key failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { key: res.body.apiKey, id: svc!.id };
}

/** The login a token continues (its sid claim, lib/human-token.ts kioskLoginOf), read from the token itself. */
export function kioskLoginOfToken(token: string): string {
  const claims = JSON.parse(Buffer.from(token.split('!')[1] ?? '', 'base64url').toString()) as { sid?: string; jti: string };
  return claims.sid ?? claims.jti;
}

/** A new print agent of the demo site and its own key (label/agent/create), added by an admin. */
export async function agentKeyFor(app: FastifyInstance, adminToken: string, agentId: string, name = `Agent ${agentId}`): Promise<string> {
  const res = await call(app, 'label/agent/create', { agentId, name }, adminToken);
  if (res.status !== 200 || !res.body.agentKey)
    throw new Error(`adding the print agent ${agentId} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.agentKey;
}
