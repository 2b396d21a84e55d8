import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { cancelOrder, getOrder, listOrders, saveOrder } from './service.ts';

// Who may make each call is declared in the contract (contract/rights.ts) and checked by registerCall.
export function orderRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'order/save', ({ auth, body }) => saveOrder(deps, auth, body));
  registerCall(app, deps, 'order/get', ({ auth, body }) => getOrder(deps.db, auth, body));
  registerCall(app, deps, 'order/list', ({ auth, body }) => listOrders(deps.db, auth, body));
  registerCall(app, deps, 'order/cancel', ({ auth, body }) => cancelOrder(deps, auth, body));
}
