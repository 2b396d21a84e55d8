import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import * as siteAdmin from './service.ts';

export function siteAdminRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'admin/site/list', ({ auth }) => siteAdmin.listSites(deps, auth));
  registerCall(app, deps, 'admin/workstation/list', ({ auth }) => siteAdmin.listWorkstations(deps, auth));
  registerCall(app, deps, 'admin/workstation/update', ({ auth, body }) => siteAdmin.updateWorkstation(deps, auth, body));
  registerCall(app, deps, 'admin/workstation/remove', ({ auth, body }) => siteAdmin.removeWorkstation(deps, auth, body));
  registerCall(app, deps, 'admin/workstation/pair', ({ auth, body }) => siteAdmin.approvePairing(deps, auth, body));
  registerCall(app, deps, 'workstation/pair/start', ({ auth, body }) => siteAdmin.startPairing(deps, auth, body));
  registerCall(app, deps, 'workstation/pair/claim', ({ auth, body }) => siteAdmin.claimPairing(deps, auth, body));
  registerCall(app, deps, 'admin/audit/list', ({ auth, body }) => siteAdmin.listAudit(deps, auth, body));
  registerCall(app, deps, 'admin/appSettings/put', ({ auth, body }) => siteAdmin.putAppSettings(deps, auth, body));
  registerCall(app, deps, 'admin/brand/put', ({ auth, body }) => siteAdmin.putBrand(deps, auth, body));
}
