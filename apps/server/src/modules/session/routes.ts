import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { attachedPrinters } from '../labels/service.ts';
import { genSessionToken, getSession, getVisibleFeatures, putSession } from './service.ts';

export function sessionRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'capture/session/genSessionToken', ({ auth, body }) => genSessionToken(deps, auth, body));
  registerCall(app, deps, 'site/access/getVisibleFeatures', ({ auth, body }) => getVisibleFeatures(deps, auth, body.sessionToken));
  registerCall(app, deps, 'capture/session/getSession', ({ auth, body }) => getSession(deps, auth, body.sessionToken));
  registerCall(app, deps, 'capture/session/putSession', ({ auth, body }) => putSession(deps, auth, body));
  // The printers of the site's connected print agents, from the database: right on every node (docs/labels.md).
  registerCall(app, deps, 'docIo/zplPrinter/getAttachedPrinters', async ({ auth }) => ({
    printers: await attachedPrinters(deps.db, auth.orgId, auth.siteId),
  }));
}
