import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { getSiteData, putSiteData, resolveSite } from './service.ts';

export function siteRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'site/resolve', ({ body }) => resolveSite(deps, body.hostname));
  registerCall(app, deps, 'site/getData', ({ body, auth }) => getSiteData(deps, auth, body));
  registerCall(app, deps, 'site/putData', ({ body, auth }) => putSiteData(deps, auth, body));
}
