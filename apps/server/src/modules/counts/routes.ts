import type { FastifyInstance } from 'fastify';
import { SHEET_IMPORT_MAX_BYTES } from '@floorhand/contract/counts';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { forgetBlind } from '../../lib/blind-places.ts';
import { importSheets } from './csv-plan.ts';
import { sheetPdf } from './sheet-pdf.ts';
import { translatorOf } from '../../lib/language.ts';
import {
  changeSheetState,
  createSheet,
  decide,
  exportSheet,
  getSheet,
  getFrequency,
  getThreshold,
  listSheets,
  postSheet,
  putFrequency,
  putThreshold,
  recordCount,
  reviewSheet,
  scanLocation,
} from './service.ts';

// Physical inventory. Who may make each call is declared in the contract (contract/rights.ts).
export function countRoutes(app: FastifyInstance, deps: Deps): void {
  // A call that can change who counts which blind sheet's locations: this node forgets whose stock
  // quantities it hides, once the call has finished (counts/blind.ts).
  const blindChange =
    <C extends { auth: { orgId: string } }, R>(run: (ctx: C) => Promise<R>) =>
    async (ctx: C): Promise<R> => {
      try {
        return await run(ctx);
      } finally {
        forgetBlind(deps.db, ctx.auth.orgId);
      }
    };
  registerCall(app, deps, 'counts/sheet/list', ({ auth, body }) => listSheets(deps, auth, body));
  registerCall(
    app,
    deps,
    'counts/sheet/create',
    blindChange(({ auth, body }) => createSheet(deps, auth, body)),
  );
  // Encapsulated, so the larger body limit applies to the import only.
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = SHEET_IMPORT_MAX_BYTES + 64 * 1024;
    });
    registerCall(
      scope,
      deps,
      'counts/sheet/import',
      blindChange(({ auth, body }) => importSheets(deps, auth, body)),
    );
  });
  // Answers application/pdf; the contract's response schema only covers errors.
  registerCall(app, deps, 'counts/sheet/pdf', async ({ auth, body, req, reply }) => {
    const pdf = await sheetPdf(deps, auth, body, translatorOf(req));
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${pdf.fileName}"`)
      .header('cache-control', 'no-store')
      .send(Buffer.from(pdf.bytes)) as never;
  });
  registerCall(app, deps, 'counts/sheet/get', ({ auth, body }) => getSheet(deps, auth, body));
  registerCall(
    app,
    deps,
    'counts/sheet/start',
    blindChange(({ auth, body }) => changeSheetState(deps, auth, body, 'start')),
  );
  registerCall(
    app,
    deps,
    'counts/sheet/submit',
    blindChange(({ auth, body }) => changeSheetState(deps, auth, body, 'submit')),
  );
  registerCall(
    app,
    deps,
    'counts/sheet/cancel',
    blindChange(({ auth, body }) => changeSheetState(deps, auth, body, 'cancel')),
  );
  registerCall(app, deps, 'counts/scanLocation', ({ auth, body }) => scanLocation(deps, auth, body));
  registerCall(
    app,
    deps,
    'counts/record',
    blindChange(({ auth, body }) => recordCount(deps, auth, body)),
  );
  registerCall(app, deps, 'counts/review', ({ auth, body }) => reviewSheet(deps, auth, body));
  registerCall(
    app,
    deps,
    'counts/decide',
    blindChange(({ auth, body }) => decide(deps, auth, body)),
  );
  registerCall(
    app,
    deps,
    'counts/post',
    blindChange(({ auth, body }) => postSheet(deps, auth, body)),
  );
  registerCall(app, deps, 'counts/export', ({ auth, body }) => exportSheet(deps, auth, body));
  registerCall(app, deps, 'counts/threshold/get', ({ auth, body }) => getThreshold(deps, auth, body));
  registerCall(app, deps, 'counts/threshold/put', ({ auth, body }) => putThreshold(deps, auth, body));
  registerCall(app, deps, 'counts/frequency/get', ({ auth, body }) => getFrequency(deps, auth, body));
  registerCall(app, deps, 'counts/frequency/put', ({ auth, body }) => putFrequency(deps, auth, body));
}
