import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { createLoginLimiter, limitsOf } from '../auth/login-limiter.ts';
import * as admin from './service.ts';

export function adminRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'account/me/get', ({ auth }) => admin.getMe(deps, auth));
  registerCall(app, deps, 'account/me/update', ({ auth, body }) => admin.updateMe(deps, auth, body));
  const passwordLimiter = createLoginLimiter(deps.limitStore, 'password', limitsOf(deps.config));
  registerCall(app, deps, 'account/me/changePassword', ({ auth, body, req }) => admin.changeMyPassword(deps, passwordLimiter, auth, body, req.ip));
  registerCall(app, deps, 'admin/account/list', ({ auth, body }) => admin.listAccounts(deps, auth, body));
  registerCall(app, deps, 'admin/account/get', ({ auth, body }) => admin.getAccount(deps, auth, body));
  registerCall(app, deps, 'admin/account/create', ({ auth, body }) => admin.createAccount(deps, auth, body));
  registerCall(app, deps, 'admin/account/update', ({ auth, body }) => admin.updateAccount(deps, auth, body));
  registerCall(app, deps, 'admin/account/setPassword', ({ auth, body }) => admin.setPassword(deps, auth, body));
  registerCall(app, deps, 'admin/account/resetPassword', ({ auth, body }) => admin.resetPassword(deps, auth, body));
  registerCall(app, deps, 'admin/account/issueApiKey', ({ auth, body }) => admin.issueApiKey(deps, auth, body));
  registerCall(app, deps, 'admin/account/revokeApiKey', ({ auth, body }) => admin.revokeApiKey(deps, auth, body));
  registerCall(app, deps, 'admin/role/list', ({ auth }) => admin.listRoles(deps, auth));
  registerCall(app, deps, 'admin/role/create', ({ auth, body }) => admin.createRole(deps, auth, body));
  registerCall(app, deps, 'admin/role/rename', ({ auth, body }) => admin.renameRole(deps, auth, body));
  registerCall(app, deps, 'admin/role/remove', ({ auth, body }) => admin.removeRole(deps, auth, body));
  registerCall(app, deps, 'admin/featureAccess/get', ({ auth }) => admin.getFeatureAccess(deps, auth));
  registerCall(app, deps, 'admin/featureAccess/put', ({ auth, body }) => admin.putFeatureAccess(deps, auth, body));
  registerCall(app, deps, 'admin/site/list', ({ auth }) => admin.listSites(deps, auth));
  registerCall(app, deps, 'admin/workstation/list', ({ auth }) => admin.listWorkstations(deps, auth));
  registerCall(app, deps, 'admin/workstation/update', ({ auth, body }) => admin.updateWorkstation(deps, auth, body));
  registerCall(app, deps, 'admin/workstation/remove', ({ auth, body }) => admin.removeWorkstation(deps, auth, body));
  registerCall(app, deps, 'admin/workstation/pair', ({ auth, body }) => admin.approvePairing(deps, auth, body));
  registerCall(app, deps, 'workstation/pair/start', ({ auth, body }) => admin.startPairing(deps, auth, body));
  registerCall(app, deps, 'workstation/pair/claim', ({ auth, body }) => admin.claimPairing(deps, auth, body));
  registerCall(app, deps, 'admin/audit/list', ({ auth, body }) => admin.listAudit(deps, auth, body));
  registerCall(app, deps, 'admin/appSettings/put', ({ auth, body }) => admin.putAppSettings(deps, auth, body));
  registerCall(app, deps, 'admin/brand/put', ({ auth, body }) => admin.putBrand(deps, auth, body));
}
