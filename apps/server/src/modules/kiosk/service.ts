import type { FastifyReply } from 'fastify';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { HEADERS } from '@floorhand/contract/constants';
import type { AuthContext } from '../../lib/auth-context.ts';
import { newId, writeAuditLog } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { kioskSessionEnded } from '../../lib/human-token.ts';
import { endKioskSession, endKioskSessionsOf, hashHumanToken, kioskLoginOf, newHumanToken } from '../../lib/human-token.ts';
import { identifyBadge } from '../timeclock/service.ts';
import { insertKioskSession, workerOf } from './repository.ts';

/**
 * A badge at a kiosk: the kiosk account (on a device authorised as a kiosk) hands its session to the
 * worker. Any session the kiosk still had open ends; the new human token goes back in the
 * x-human-token header only (never in the body, never logged), and the worker's user and rights in
 * the body, for the client's guards.
 */
export async function startKioskSession(
  deps: Deps,
  auth: AuthContext,
  body: CallArgs<'kiosk/start'>,
  reply: FastifyReply,
): Promise<CallResponse<'kiosk/start'>> {
  if (!auth.perms.kioskAcct) throw forbidden('Only a kiosk account hands its session to a badge.');
  if (!auth.claims.ws.kiosk) throw forbidden('This device is not authorised as a kiosk.');
  const worker = await identifyBadge(deps, auth, body);
  const token = newHumanToken();
  const timeoutMinutes = body.timeoutMinutes ?? 15;
  const id = newId();
  await deps.db.transaction(async (tx) => {
    await endKioskSessionsOf(tx, auth.accountId, 'replaced');
    await insertKioskSession(tx, {
      id,
      orgId: auth.orgId,
      siteId: auth.siteId,
      kioskAccountId: auth.accountId,
      accountId: worker.id,
      deviceId: auth.claims.ws.id,
      tokenHash: hashHumanToken(token, kioskLoginOf(auth.claims)),
      timeoutSecs: timeoutMinutes * 60,
    });
  });
  await writeAuditLog(deps.db, {
    orgId: auth.orgId,
    siteId: auth.siteId,
    accountId: worker.id,
    action: 'kiosk/start',
    entity: 'kioskSession',
    entityId: id,
    before: null,
    after: { kiosk: auth.accountId, device: auth.claims.ws.id },
  });
  void reply.header(HEADERS.humanToken, token);
  return {
    user: { id: worker.id, userName: worker.userName, firstName: worker.firstName, surnames: worker.surnames },
    perms: worker.perms,
    timeoutMinutes,
  };
}

/** Done: the human token of this call is revoked. Said without one (the kiosk's own token), nothing is open. */
export async function endKiosk(deps: Deps, auth: AuthContext): Promise<CallResponse<'kiosk/end'>> {
  if (auth.kiosk) await endKioskSession(deps.db, auth.kiosk.sessionId, 'done');
  else if (!auth.perms.kioskAcct) throw forbidden('Only a kiosk session can be ended here.');
  return {};
}

/**
 * The worker holding the kiosk, for the page after a reload: the call carries the human token, so
 * lib/calls.ts has checked it (ended or timed out: ERR_KIOSK_SESSION_ENDED) and made the caller the
 * worker. Without a human token there is no worker session.
 */
export async function currentKiosk(deps: Deps, auth: AuthContext): Promise<CallResponse<'kiosk/current'>> {
  // Without a human token there is nothing to show (not a 401: the caller's own login is fine).
  if (!auth.kiosk) throw notFound('No worker holds a kiosk session with this call. Scan your badge to start.');
  const user = await workerOf(deps.db, auth.orgId, auth.accountId);
  if (!user) throw kioskSessionEnded();
  return { user, perms: auth.perms };
}
