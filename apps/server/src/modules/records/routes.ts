import type { FastifyInstance } from 'fastify';
import type { AsyncScriptRunner } from '@floorhand/contract/records/validate';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { createScriptSandbox } from './sandbox.ts';
import { getRecord, getRecordSchema, insertRecord, listRecords, updateRecord, type RecordDeps } from './service.ts';

export function recordRoutes(app: FastifyInstance, deps: Deps): void {
  // One sandbox per app, loaded while the app starts (onReady fails the start if it cannot load),
  // so no request pays for compiling the WebAssembly module.
  const sandbox = createScriptSandbox();
  sandbox.catch(() => undefined); // reported through onReady, not as an unhandled rejection
  app.addHook('onReady', async () => {
    await sandbox;
  });
  const scripts: AsyncScriptRunner = {
    runCalc: async (script, record) => (await sandbox).runCalc(script, record),
    runCheck: async (script, value, record) => (await sandbox).runCheck(script, value, record),
  };
  const rd: RecordDeps = { db: deps.db, scripts };

  registerCall(app, deps, 'record/insert', ({ auth, body }) => insertRecord(rd, auth, body));
  registerCall(app, deps, 'record/update', ({ auth, body }) => updateRecord(rd, auth, body));
  registerCall(app, deps, 'record/get', ({ auth, body }) => getRecord(rd, auth, body));
  registerCall(app, deps, 'record/list', ({ auth, body }) => listRecords(rd, auth, body));
  registerCall(app, deps, 'record/getSchema', ({ auth, body }) => getRecordSchema(rd, auth, body));
}
