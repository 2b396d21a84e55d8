import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { packingList } from './packing-list.ts';
import { translatorOf } from '../../lib/language.ts';
import { confirmShip, issueOrder, packStock, savePackage, shipBoard, shipOrder, unpackStock } from './service.ts';

// Who may make each call is declared in the contract (contract/rights.ts) and checked by registerCall.
export function shippingRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'ship/board', ({ auth, body }) => shipBoard(deps.db, auth, body));
  registerCall(app, deps, 'ship/order', ({ auth, body }) => shipOrder(deps.db, auth, body));
  registerCall(app, deps, 'package/save', ({ auth, body }) => savePackage(deps, auth, body));
  registerCall(app, deps, 'package/pack', ({ auth, body }) => packStock(deps, auth, body));
  registerCall(app, deps, 'package/unpack', ({ auth, body }) => unpackStock(deps, auth, body));
  registerCall(app, deps, 'ship/confirm', ({ auth, body }) => confirmShip(deps, auth, body));
  registerCall(app, deps, 'package/packingList', ({ auth, body, req }) => packingList(deps.db, auth, body, translatorOf(req)));
  registerCall(app, deps, 'order/issue', ({ auth, body }) => issueOrder(deps, auth, body));
}
