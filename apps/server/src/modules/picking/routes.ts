import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { claim, confirmPick, pickList, pickOrder, release, reportDiscrepancy, shortPick, skipLine, unpick } from './service.ts';

// Who may make each call is declared in the contract (contract/rights.ts) and checked by registerCall.
export function pickingRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'pick/list', ({ auth, body }) => pickList(deps.db, auth, body));
  registerCall(app, deps, 'pick/order', ({ auth, body }) => pickOrder(deps.db, auth, body));
  registerCall(app, deps, 'pick/claim', ({ auth, body }) => claim(deps, auth, body));
  registerCall(app, deps, 'pick/release', ({ auth, body }) => release(deps, auth, body));
  registerCall(app, deps, 'pick/confirm', ({ auth, body }) => confirmPick(deps, auth, body));
  registerCall(app, deps, 'pick/short', ({ auth, body }) => shortPick(deps, auth, body));
  registerCall(app, deps, 'pick/skip', ({ auth, body }) => skipLine(deps, auth, body));
  registerCall(app, deps, 'pick/reportDiscrepancy', ({ auth, body }) => reportDiscrepancy(deps, auth, body));
  registerCall(app, deps, 'pick/unpick', ({ auth, body }) => unpick(deps, auth, body));
}
