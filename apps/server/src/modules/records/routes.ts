import type { FastifyInstance } from 'fastify';
import { registerCall, type Deps } from '../../lib/calls.ts';
import { createWorkerSandbox } from './script-worker.ts';
import { getRecord, getRecordSchema, insertRecord, listRecords, updateRecord, type RecordDeps } from './service.ts';

export function recordRoutes(app: FastifyInstance, deps: Deps): void {
  // One sandbox worker per app, started while the app starts (onReady fails the start if it cannot
  // load), so no request pays for compiling the WebAssembly module; closed with the app.
  const scripts = createWorkerSandbox();
  app.addHook('onReady', () => scripts.ready());
  app.addHook('onClose', () => scripts.close());
  const rd: RecordDeps = { db: deps.db, scripts };

  registerCall(app, deps, 'record/insert', ({ auth, body }) => insertRecord(rd, auth, body));
  registerCall(app, deps, 'record/update', ({ auth, body }) => updateRecord(rd, auth, body));
  registerCall(app, deps, 'record/get', ({ auth, body }) => getRecord(rd, auth, body));
  registerCall(app, deps, 'record/list', ({ auth, body }) => listRecords(rd, auth, body));
  registerCall(app, deps, 'record/getSchema', ({ auth, body }) => getRecordSchema(rd, auth, body));
}
