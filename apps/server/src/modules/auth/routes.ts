import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { createLoginLimiter, limitsOf } from '../../lib/login-limiter.ts';
import { login, logout, refresh } from './service.ts';

export function authRoutes(app: FastifyInstance, deps: Deps): void {
  const limiter = createLoginLimiter(deps.limitStore, 'login', limitsOf(deps.config));
  registerCall(app, deps, 'auth/login', ({ body, req }) => login(deps, limiter, body, body, req.ip));
  registerCall(app, deps, 'auth/refresh', ({ auth }) => refresh(deps, auth));
  registerCall(app, deps, 'auth/logout', ({ auth }) => logout(deps, auth));
}
