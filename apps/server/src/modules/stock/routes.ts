import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { getStock, lookupStock } from './lookup.ts';
import { adjustStock, moveStock, receiveStock, splitStock } from './service.ts';

// Who may make each call, and the feature access of a write, is declared in the contract
// (contract/rights.ts) and checked by registerCall.
export function stockRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'stock/lookup', ({ auth, body }) => lookupStock(deps.db, auth, body));
  registerCall(app, deps, 'stock/get', ({ auth, body }) => getStock(deps.db, auth, body));
  registerCall(app, deps, 'stock/receive', ({ auth, body }) => receiveStock(deps, auth, body));
  registerCall(app, deps, 'stock/adjust', ({ auth, body }) => adjustStock(deps, auth, body));
  registerCall(app, deps, 'stock/move', ({ auth, body }) => moveStock(deps, auth, body));
  registerCall(app, deps, 'stock/split', ({ auth, body }) => splitStock(deps, auth, body));
}
