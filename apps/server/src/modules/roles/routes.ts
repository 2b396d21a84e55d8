import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import * as roles from './service.ts';

export function rolesRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'admin/role/list', ({ auth }) => roles.listRoles(deps, auth));
  registerCall(app, deps, 'admin/role/create', ({ auth, body }) => roles.createRole(deps, auth, body));
  registerCall(app, deps, 'admin/role/rename', ({ auth, body }) => roles.renameRole(deps, auth, body));
  registerCall(app, deps, 'admin/role/remove', ({ auth, body }) => roles.removeRole(deps, auth, body));
  registerCall(app, deps, 'admin/featureAccess/get', ({ auth }) => roles.getFeatureAccess(deps, auth));
  registerCall(app, deps, 'admin/featureAccess/put', ({ auth, body }) => roles.putFeatureAccess(deps, auth, body));
}
