import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { calls, type CallPath, type CallResponse } from '@floorhand/contract/api';
import { AppError } from '@floorhand/contract/errors';
import { forbidden, notFound, orgMismatch, unauthorized } from './errors.ts';
import { accountKindOf, DEVICE_REFUSAL, refusalFor, rightsOf, WHILE_PASSWORD_TEMPORARY } from '@floorhand/contract/rights';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { authenticate, bearerToken, type AuthContext, type AuthTarget } from './auth-context.ts';
import { changesAuth, type AuthCache } from './auth-cache.ts';
import type { Realtime } from './realtime.ts';
import type { TokenService } from './tokens.ts';
import type { LimitStore } from './limit-store.ts';
import type { Metrics } from './metrics.ts';
import { requireFeatures } from './features.ts';
import type { JsonAnswer } from './response-serializer.ts';
import { HEADERS } from '@floorhand/contract/constants';
import { authenticateHuman, KIOSK_OWN_CALLS, kioskLoginEnded } from './human-token.ts';
import { looksLikeAgentKey } from '@floorhand/contract/labels';
import { AGENT_KEY_ON_HTTP } from './agent-auth.ts';

const kioskLoginLost = (e: unknown): never => {
  throw e instanceof AppError && e.status === 401 ? kioskLoginEnded() : e;
};

export interface Deps {
  db: Db;
  tokens: TokenService;
  config: Config;
  realtime: Realtime;
  authCache: AuthCache;
  /** Failure counters of the login and password limiters (Redis when configured). */
  limitStore: LimitStore;
  /** What /metrics counts that only a module sees (lib/metrics.ts). */
  metrics: Metrics;
}

/** `authenticate` through the node's short-lived cache (lib/auth-cache.ts). */
async function authenticateCached(deps: Deps, token: string, target: AuthTarget): Promise<AuthContext> {
  const key = `${token}\u0000${target.siteId ?? ''}\u0000${target.appId ?? ''}`;
  const known = deps.authCache.get(key);
  if (known) return known;
  const auth = await authenticate(deps.db, deps.tokens, token, target);
  deps.authCache.set(key, auth);
  return auth;
}

interface CallContext<P extends CallPath> {
  body: z.output<(typeof calls)[P]['body']>;
  req: FastifyRequest;
  reply: FastifyReply;
}
type Authed<P extends CallPath, A> = CallContext<P> & { auth: A };

/** What a handler answers: the response, or its JSON already written (only calls of FAST_RESPONSES). */
type Answer<P extends CallPath> = CallResponse<P> | JsonAnswer<P>;

type Handler<P extends CallPath> = (typeof calls)[P]['auth'] extends 'required'
  ? (ctx: Authed<P, AuthContext>) => Promise<Answer<P>>
  : (typeof calls)[P]['auth'] extends 'optional'
    ? (ctx: Authed<P, AuthContext | undefined>) => Promise<Answer<P>>
    : (ctx: CallContext<P>) => Promise<Answer<P>>;

const authOf = new WeakMap<FastifyRequest, AuthContext>();

/**
 * The rights the contract declares for `path` (contract/rights.ts), checked for one caller: the
 * account kind first (a kiosk or time-clock account never changes stock), then, for a worker's call
 * through a kiosk (a human token: `auth.kiosk`), the kiosk's device ceiling (an admin's badge lends
 * the kiosk no administration), then the features its roles must give. Every call goes through
 * here; so do the few routes outside registerCall (the CSV GET).
 */
export async function enforceRights(deps: Deps, path: string, auth: AuthContext): Promise<void> {
  const rights = rightsOf(path);
  if (!rights) throw notFound(`No such call: ${path}`);
  const kind = accountKindOf(auth.perms);
  if (!rights.accounts.includes(kind)) throw forbidden(refusalFor(kind).message);
  if (auth.kiosk && !rights.devices.includes('kiosk')) throw forbidden(DEVICE_REFUSAL.message);
  if (auth.mustChangePassword && !WHILE_PASSWORD_TEMPORARY.has(path)) {
    throw forbidden('Choose your own password first: the one an administrator set is temporary.');
  }
  if (rights.features) await requireFeatures(deps, auth, ...rights.features);
}

const tagOf = (path: string): string => path.split('/')[0] ?? 'api';

/**
 * Registers one call of the contract as POST /api/<path>: schema from the contract, identity from the
 * token. A body whose orgId, siteId or appId differs from the token's is refused: the caller cannot
 * act for another organisation whatever ids it sends.
 */
export function registerCall<P extends CallPath>(app: FastifyInstance, deps: Deps, path: P, handler: Handler<P>): void {
  const def = calls[path];
  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'POST',
    url: `/api/${path}`,
    schema: {
      tags: [tagOf(path)],
      summary: def.locId ? `${path} (${def.locId})` : path,
      body: def.body,
      response: { 200: def.response },
      ...(def.auth === 'none' ? {} : { security: [{ bearer: [] }] }),
    },
    // Who is calling is settled before the body is validated: a call without a valid
    // token is a 401 whatever its body, and reveals nothing of the body schema.
    preValidation: async (req) => {
      const token = bearerToken(req.headers.authorization);
      // A print agent's key never makes an HTTP call, not even one that needs no login.
      if (token && looksLikeAgentKey(token)) throw forbidden(AGENT_KEY_ON_HTTP);
      const human = req.headers[HEADERS.humanToken];
      const withHuman = typeof human === 'string' && !!human && !KIOSK_OWN_CALLS.has(path);
      // An API key is valid on the site the call names (docs/admin.md); a token names its own.
      const b = (typeof req.body === 'object' && req.body ? req.body : {}) as { siteId?: unknown; appId?: unknown };
      const target = {
        siteId: typeof b.siteId === 'string' && b.siteId ? b.siteId : undefined,
        appId: typeof b.appId === 'string' && b.appId ? b.appId : undefined,
      };
      // A worker's call whose kiosk login has ended (logged out, expired) says the session has ended.
      if (def.auth === 'required' && token) {
        const kioskOrCaller = authenticateCached(deps, token, target);
        authOf.set(req, await (withHuman ? kioskOrCaller.catch(kioskLoginLost) : kioskOrCaller));
      }
      // Public data stays public: a stale or broken token on an optional call reads it anonymously,
      // and the next call that needs the token reports the problem.
      if (def.auth === 'optional' && token) {
        const auth = await authenticateCached(deps, token, target).catch((e: unknown) => {
          if (e instanceof AppError && e.status === 401) return undefined;
          throw e;
        });
        if (auth) authOf.set(req, auth);
      }
      if (def.auth === 'required' && !authOf.has(req)) throw unauthorized('Please log in first');
      // A kiosk's call with a worker's human token is the worker's (never cached: revocation and the
      // inactivity timeout are checked on every call).
      const kioskAuth = authOf.get(req);
      if (kioskAuth && withHuman) authOf.set(req, await authenticateHuman(deps.db, kioskAuth, human));
      // Rights do not depend on the body: a caller who may not make the call learns nothing of its schema.
      const auth = authOf.get(req);
      if (auth) await enforceRights(deps, path, auth);
    },
    handler: async (req, reply) => {
      const body = req.body as z.output<(typeof calls)[P]['body']>;
      const auth = authOf.get(req);
      if (auth) {
        const b = body as { orgId: string; siteId: string; appId: string };
        if (b.orgId !== auth.orgId || b.siteId !== auth.siteId || b.appId !== auth.appId) {
          throw orgMismatch(
            'The request names another organisation, site or app than your login',
            `token: ${auth.orgId}/${auth.siteId}/${auth.appId}, body: ${b.orgId}/${b.siteId}/${b.appId}`,
          );
        }
      }
      // A JsonAnswer goes to the serializer as it is (lib/response-serializer.ts); the route's type knows only the response.
      const run = () => (handler as (ctx: Authed<P, AuthContext | undefined>) => Promise<CallResponse<P>>)({ body, req, reply, auth });
      if (!changesAuth(path)) return run();
      // After the change has committed (or failed), no node may answer from what it remembered.
      try {
        return await run();
      } finally {
        deps.authCache.clear();
      }
    },
  });
}
