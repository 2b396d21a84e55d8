import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { getItem, listItems, saveItem } from './service.ts';

// Who may make each call, and the feature access of a write, is declared in the contract
// (contract/rights.ts) and checked by registerCall.
export function itemRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'item/list', ({ auth, body }) => listItems(deps.db, auth, body));
  registerCall(app, deps, 'item/get', ({ auth, body }) => getItem(deps.db, auth, body));
  registerCall(app, deps, 'item/save', ({ auth, body }) => saveItem(deps, auth, body));
}
