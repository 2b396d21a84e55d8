import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { createLoginLimiter, limitsOf } from '../../lib/login-limiter.ts';
import * as accounts from './service.ts';

export function accountsRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'account/me/get', ({ auth }) => accounts.getMe(deps, auth));
  registerCall(app, deps, 'account/me/update', ({ auth, body }) => accounts.updateMe(deps, auth, body));
  const passwordLimiter = createLoginLimiter(deps.limitStore, 'password', limitsOf(deps.config));
  registerCall(app, deps, 'account/me/changePassword', ({ auth, body, req }) =>
    accounts.changeMyPassword(deps, passwordLimiter, auth, body, req.ip),
  );
  registerCall(app, deps, 'admin/account/list', ({ auth, body }) => accounts.listAccounts(deps, auth, body));
  registerCall(app, deps, 'admin/account/get', ({ auth, body }) => accounts.getAccount(deps, auth, body));
  registerCall(app, deps, 'admin/account/create', ({ auth, body }) => accounts.createAccount(deps, auth, body));
  registerCall(app, deps, 'admin/account/update', ({ auth, body }) => accounts.updateAccount(deps, auth, body));
  registerCall(app, deps, 'admin/account/setPassword', ({ auth, body }) => accounts.setPassword(deps, auth, body));
  registerCall(app, deps, 'admin/account/resetPassword', ({ auth, body }) => accounts.resetPassword(deps, auth, body));
  registerCall(app, deps, 'admin/account/issueApiKey', ({ auth, body }) => accounts.issueApiKey(deps, auth, body));
  registerCall(app, deps, 'admin/account/revokeApiKey', ({ auth, body }) => accounts.revokeApiKey(deps, auth, body));
}
