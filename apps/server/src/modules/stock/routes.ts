import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { getStock, stockLookups } from './lookup.ts';
import { adjustStock, moveStock, receiveStock, splitStock } from './service.ts';

// Who may make each call, and the feature access of a write, is declared in the contract
// (contract/rights.ts) and checked by registerCall.
/** `connections`: the database's connections, the most lookup statements out at once. */
export function stockRoutes(app: FastifyInstance, deps: Deps, connections: number): void {
  // Lookups hold at most the pool's connections at once; those past that go together when one ends,
  // where they would have queued in the pool ahead of picks and writes (pg's pool serves in turn).
  const lookupStock = stockLookups(deps.db, connections, deps.metrics);
  registerCall(app, deps, 'stock/lookup', ({ auth, body }) => lookupStock(auth, body));
  registerCall(app, deps, 'stock/get', ({ auth, body }) => getStock(deps.db, auth, body));
  registerCall(app, deps, 'stock/receive', ({ auth, body }) => receiveStock(deps, auth, body));
  registerCall(app, deps, 'stock/adjust', ({ auth, body }) => adjustStock(deps, auth, body));
  registerCall(app, deps, 'stock/move', ({ auth, body }) => moveStock(deps, auth, body));
  registerCall(app, deps, 'stock/split', ({ auth, body }) => splitStock(deps, auth, body));
}
