/*
 * The record layer (docs/records.md): generic records of registered entities, validated by the
 * contract's engine with the server's script sandbox, with control fields owned by the server.
 *
 * - _id is the value of the entity's idFieldName; it cannot change on update.
 * - _rev starts at 1 and grows by one per update. An update must carry the _rev it read: the row is
 *   written only WHERE _rev still matches (optimistic concurrency), otherwise 409 ERR_CONFLICT.
 * - x$type and x$audit are set here, whatever the body says; tmp$ properties are never stored.
 * - Validation failures are 400 ERR_BAD_INPUT with the first messages in `message` and every
 *   message per field in `detail` (JSON of validationDetailSchema).
 */
import { RECORD_ID_MAX, type CallArgs, type CallResponse } from '@floorhand/contract/api';
import { isAdmin } from '@floorhand/contract/perms';
import type { EntityDef } from '@floorhand/contract/records/schema-model';
import {
  MESSAGES,
  siteDataEntity,
  validateRecord,
  validateRecordAsync,
  type AsyncScriptRunner,
} from '@floorhand/contract/records/validate';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, writeAuditLog } from '../../lib/audit.ts';
import type { Db } from '../../db/client.ts';
import { findSiteData } from '../../lib/site-data.ts';
import { entityConfId, getEntity, readEntityConf, withSiteConf, type RegisteredEntity } from './registry.ts';
import { DuplicateKeyError, guarded } from '../../db/errors.ts';
import { conflict, countIncorrect, dup, forbidden, invalidRecord, notFound } from '../../lib/errors.ts';
import { findRecordRow, insertRecordRow, listRecordRows, updateRecordRow, type RecordKey, type RecordRow } from './repository.ts';

export interface RecordDeps {
  db: Db;
  /** The app's script sandbox: calculation and custom check scripts run only here. */
  scripts: AsyncScriptRunner;
}

type StoredRecord = NonNullable<CallResponse<'record/get'>['record']>;

// The spec's `required` fails an empty object, but an emptied conf ({}) is legitimate site data, so
// `data` is checked for presence here and for its type by the engine.
const siteDataFields = siteDataEntity.fields.map((f) => (f.name === 'data' ? { ...f, conditions: {} } : f));
const siteDataLabel = siteDataEntity.fields.find((f) => f.name === 'data')?.label ?? 'Data';

/** Site data as sent to site/putData, checked with siteDataEntity; throws the 400 otherwise. */
export function checkSiteData(input: Record<string, unknown>): { dataId: string; data: Record<string, unknown>; _rev?: number } {
  const result = validateRecord({ ...siteDataEntity, fields: siteDataFields }, input);
  if (input.data === undefined || input.data === null) result.errors.data = [MESSAGES.required(siteDataLabel)];
  if (Object.keys(result.errors).length > 0) throw invalidRecord(result.errors, 'siteData');
  return result.value as { dataId: string; data: Record<string, unknown>; _rev?: number };
}

/** The registered entity with the site's conf (entity_<type>) merged into its definition. */
async function siteEntity(deps: RecordDeps, auth: AuthContext, entity: RegisteredEntity): Promise<EntityDef> {
  const conf = await findSiteData(deps.db, auth.siteId, 'conf', entityConfId(entity.def.type));
  return withSiteConf(entity.def, readEntityConf(conf?.data));
}

function assertCanWrite(entity: RegisteredEntity, auth: AuthContext): void {
  if (entity.writeAccess === 'admin' && !isAdmin(auth.perms)) {
    throw forbidden(`Only site or organisation administrators may change ${entity.def.title} records`);
  }
}

const idLabel = (def: EntityDef): string => def.fields.find((f) => f.name === def.idFieldName)?.label ?? def.idFieldName;

/** Validates the record (scripts included) and returns its data without control fields. */
async function validData(deps: RecordDeps, def: EntityDef, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  // Server-owned fields are dropped before scripts see the record: a forged stamp never gets anywhere.
  const { x$type: _type, x$audit: _audit, ...record } = input;
  const result = await validateRecordAsync(def, record, { scripts: deps.scripts });
  if (!result.ok) throw invalidRecord(result.errors, 'record', result.detail);
  // A calculation script may have added control fields too; the server sets them.
  const { _id, _rev, x$type: _t, x$audit: _a, ...data } = result.value;
  return data;
}

/** The record's id: its idFieldName value, which must be present and fit the _id column. */
function idOf(def: EntityDef, data: Record<string, unknown>): string {
  const raw = data[def.idFieldName];
  const id = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
  if (id.trim() === '') throw invalidRecord({ [def.idFieldName]: [MESSAGES.required(idLabel(def))] }, 'record');
  if ([...id].length > RECORD_ID_MAX)
    throw invalidRecord({ [def.idFieldName]: [MESSAGES.maxLength(idLabel(def), RECORD_ID_MAX)] }, 'record');
  return id;
}

/** Every record change in the audit log (entity: the record type), in the transaction of the change. */
const logChange = (db: Db, auth: AuthContext, action: string, type: string, id: string, before: unknown, after: unknown) =>
  guarded(() =>
    writeAuditLog(db, {
      orgId: auth.orgId,
      siteId: auth.siteId,
      accountId: auth.accountId,
      action,
      entity: type,
      entityId: id,
      before,
      after,
    }),
  );

const toRecord = (row: RecordRow): StoredRecord => ({ ...row.data, _id: row.id, _rev: row.rev, x$type: row.type, x$audit: row.audit });

const recordConflict = (def: EntityDef, id: string, why: string, detail?: string) =>
  conflict(`The ${def.title} '${id}' ${why}; reload it and try again`, detail || undefined);

export async function insertRecord(
  deps: RecordDeps,
  auth: AuthContext,
  body: CallArgs<'record/insert'>,
): Promise<CallResponse<'record/insert'>> {
  const entity = getEntity(body.type);
  assertCanWrite(entity, auth);
  const def = await siteEntity(deps, auth, entity);
  const data = await validData(deps, def, body.record);
  const id = idOf(def, data);
  let row: RecordRow | undefined;
  try {
    row = await deps.db.transaction(async (tx) => {
      const inserted = await insertRecordRow(tx, {
        orgId: auth.orgId,
        type: def.type,
        id,
        rev: 1,
        data,
        audit: auditStamp(auth.accountId),
      });
      if (inserted) await logChange(tx, auth, 'record/insert', def.type, id, null, data);
      return inserted;
    });
  } catch (error) {
    if (error instanceof DuplicateKeyError) {
      throw dup(def.title, id);
    }
    throw error;
  }
  if (!row) throw countIncorrect('Insert was unsuccessful');
  return { record: toRecord(row) };
}

export async function updateRecord(
  deps: RecordDeps,
  auth: AuthContext,
  body: CallArgs<'record/update'>,
): Promise<CallResponse<'record/update'>> {
  const entity = getEntity(body.type);
  assertCanWrite(entity, auth);
  const { def } = entity;
  const input = body.record;
  const rawKey = input._id ?? input[def.idFieldName];
  if (typeof rawKey !== 'string' && typeof rawKey !== 'number')
    throw invalidRecord({ [def.idFieldName]: [MESSAGES.required(idLabel(def))] }, 'record');
  const key: RecordKey = { orgId: auth.orgId, type: def.type, id: String(rawKey) };

  const existing = await findRecordRow(deps.db, key);
  if (!existing) throw notFound(`No ${def.title} with id '${key.id}' exists`);
  // Checked before validation: a stale record is refused whatever else is wrong with it.
  const rev = input._rev;
  if (typeof rev !== 'number') throw recordConflict(def, key.id, 'was sent without its revision (_rev)');
  if (rev !== existing.rev)
    throw recordConflict(def, key.id, 'was changed by someone else', `revision sent: ${rev}, stored: ${existing.rev}`);

  const data = await validData(deps, await siteEntity(deps, auth, entity), input);
  if (idOf(def, data) !== key.id) {
    throw invalidRecord({ [def.idFieldName]: [`'${idLabel(def)}' cannot be changed (the record's id is '${key.id}')`] }, 'record');
  }
  const row = await deps.db.transaction(async (tx) => {
    const updated = await updateRecordRow(tx, key, rev, { data, audit: auditStamp(auth.accountId, existing.audit) });
    if (updated) await logChange(tx, auth, 'record/update', def.type, key.id, existing.data, data);
    return updated;
  });
  if (row) return { record: toRecord(row) };
  // No row matched: another update won the race (conflict), or the record is gone.
  if (await findRecordRow(deps.db, key)) throw recordConflict(def, key.id, 'was changed by someone else');
  throw countIncorrect('Update was unsuccessful');
}

export async function getRecord(deps: RecordDeps, auth: AuthContext, body: CallArgs<'record/get'>): Promise<CallResponse<'record/get'>> {
  const { def } = getEntity(body.type);
  const row = await findRecordRow(deps.db, { orgId: auth.orgId, type: def.type, id: body.id });
  if (!row) throw notFound(`No ${def.title} with id '${body.id}' exists`);
  return { record: toRecord(row) };
}

export async function listRecords(
  deps: RecordDeps,
  auth: AuthContext,
  body: CallArgs<'record/list'>,
): Promise<CallResponse<'record/list'>> {
  const { def } = getEntity(body.type);
  const limit = body.limit ?? 100;
  // One row more than asked tells whether another page follows.
  const rows = await listRecordRows(deps.db, auth.orgId, def.type, { after: body.after, limit: limit + 1 });
  return { records: rows.slice(0, limit).map(toRecord), more: rows.length > limit };
}

export async function getRecordSchema(
  deps: RecordDeps,
  auth: AuthContext,
  body: CallArgs<'record/getSchema'>,
): Promise<CallResponse<'record/getSchema'>> {
  return { entity: await siteEntity(deps, auth, getEntity(body.type)) };
}
