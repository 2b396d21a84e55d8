import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import {
  changeSheetState,
  createSheet,
  decide,
  exportSheet,
  getSheet,
  getThreshold,
  listSheets,
  postSheet,
  putThreshold,
  recordCount,
  reviewSheet,
  scanLocation,
} from './service.ts';

// Physical inventory. Who may make each call is declared in the contract (contract/rights.ts).
export function countRoutes(app: FastifyInstance, deps: Deps): void {
  registerCall(app, deps, 'counts/sheet/list', ({ auth, body }) => listSheets(deps, auth, body));
  registerCall(app, deps, 'counts/sheet/create', ({ auth, body }) => createSheet(deps, auth, body));
  registerCall(app, deps, 'counts/sheet/get', ({ auth, body }) => getSheet(deps, auth, body));
  registerCall(app, deps, 'counts/sheet/start', ({ auth, body }) => changeSheetState(deps, auth, body, 'start'));
  registerCall(app, deps, 'counts/sheet/submit', ({ auth, body }) => changeSheetState(deps, auth, body, 'submit'));
  registerCall(app, deps, 'counts/sheet/cancel', ({ auth, body }) => changeSheetState(deps, auth, body, 'cancel'));
  registerCall(app, deps, 'counts/scanLocation', ({ auth, body }) => scanLocation(deps, auth, body));
  registerCall(app, deps, 'counts/record', ({ auth, body }) => recordCount(deps, auth, body));
  registerCall(app, deps, 'counts/review', ({ auth, body }) => reviewSheet(deps, auth, body));
  registerCall(app, deps, 'counts/decide', ({ auth, body }) => decide(deps, auth, body));
  registerCall(app, deps, 'counts/post', ({ auth, body }) => postSheet(deps, auth, body));
  registerCall(app, deps, 'counts/export', ({ auth, body }) => exportSheet(deps, auth, body));
  registerCall(app, deps, 'counts/threshold/get', ({ auth, body }) => getThreshold(deps, auth, body));
  registerCall(app, deps, 'counts/threshold/put', ({ auth, body }) => putThreshold(deps, auth, body));
}
