import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { genSessionToken, getSession, getVisibleFeatures, putSession } from './service.ts';

export function sessionRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'capture/session/genSessionToken', ({ auth, body }) => genSessionToken(deps, auth, body));
  registerCall(app, deps, 'site/access/getVisibleFeatures', ({ auth, body }) => getVisibleFeatures(deps, auth, body.sessionToken));
  registerCall(app, deps, 'capture/session/getSession', ({ auth, body }) => getSession(deps, auth, body.sessionToken));
  registerCall(app, deps, 'capture/session/putSession', ({ auth, body }) => putSession(deps, auth, body));
  registerCall(app, deps, 'docIo/zplPrinter/getAttachedPrinters', async ({ auth }) => ({ printers: deps.realtime.printersOf(auth.siteId) }));
}
