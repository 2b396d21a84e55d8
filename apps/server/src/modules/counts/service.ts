/*
 * Physical inventory (docs/physical-inventory.md), the module's face: count sheets (made, listed,
 * started, sent to review, cancelled), a warehouse's thresholds and cycle frequencies, and a count
 * asked for by another work area. Counting is in counting.ts, review and export in review.ts, the post
 * in post.ts; their calls are answered from here. A blind sheet's system quantities are never selected
 * for a counter's answer.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { mayTransition, SHEET_TRANSITIONS, type CounterLine, type SheetTransition } from '@floorhand/contract/counts';
import { formatQty } from '@floorhand/contract/quantity';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, checkRev, conflict, notFound } from '../../lib/errors.ts';
import type { Db } from '../../db/client.ts';
import { actorOf } from '../stock/ledger.ts';
import { warehousesByCode } from '../../lib/refs.ts';
import { closeCounting, counterLines } from './repository.ts';
import { mayCount, sheetAnswer, theSheet } from './sheet-access.ts';
import {
  activeAccountsByName,
  insertSheetRows,
  listedSheets,
  lockLocation,
  nextSheetCode,
  openSheetOfLocation,
  setSheetState,
  sheetCandidates,
  sheetLocation,
  sheetLocations,
  sheetRow,
} from './sheet-repository.ts';
import {
  deleteFrequencies,
  frequenciesOf,
  thresholdOf,
  upsertFrequencies,
  upsertThreshold,
  warehouseLocations,
} from './settings-repository.ts';

export { recordCount, scanLocation } from './counting.ts';
export { decide, exportSheet, reviewSheet } from './review.ts';
export { postSheet } from './post.ts';

const SHEET_LIST_MAX = 499;

// ---------------------------------------------------------------------------------------------
// Sheets

export async function listSheets(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/sheet/list'>,
): Promise<CallResponse<'counts/sheet/list'>> {
  const filter = {
    orgId: auth.orgId,
    accountId: auth.accountId,
    fromDate: body.fromDate,
    open: body.filterSheetOpen,
    self: body.filterSheetSelf,
    sheet: body.sheet,
    warehouse: body.warehouse,
  };
  const sheets = await listedSheets(deps.db, filter, SHEET_LIST_MAX + 1);
  return { sheets: sheets.slice(0, SHEET_LIST_MAX), more: sheets.length > SHEET_LIST_MAX };
}

/** What a new sheet is made of: counts/sheet/create's body, or a row of counts/sheet/import. */
export interface SheetInput {
  warehouse: string;
  description: string;
  locations?: string[] | undefined;
  fromLocation?: string | undefined;
  toLocation?: string | undefined;
  assignees: string[];
  blind: boolean;
  due: boolean;
}

/** A sheet checked and ready to insert. */
export interface SheetPlan {
  warehouseId: string;
  description: string;
  blind: boolean;
  locationIds: string[];
  assigneeIds: string[];
}

/**
 * Checks a new sheet and finds its locations and counters. Every problem is reported (field and
 * message), not only the first: the import lists them all. Names are looked up in Maps and Sets only.
 */
export async function planSheet(
  db: Db,
  auth: AuthContext,
  input: SheetInput,
): Promise<{ plan?: SheetPlan; problems: Array<{ field: string; message: string }> }> {
  const problems: Array<{ field: string; message: string }> = [];
  const warehouse = (await warehousesByCode(db, auth.orgId, [input.warehouse])).get(input.warehouse);
  if (!warehouse) problems.push({ field: 'warehouse', message: `No warehouse '${input.warehouse}' exists` });
  else if (!warehouse.active) problems.push({ field: 'warehouse', message: `The warehouse '${input.warehouse}' is inactive` });
  const list = input.locations && input.locations.length > 0 ? input.locations : undefined;
  if (list && (input.fromLocation || input.toLocation))
    problems.push({ field: 'locations', message: 'Give a list of locations or a range, not both' });
  let locationIds: string[] = [];
  if (warehouse?.active && !problems.length) {
    const located = await sheetCandidates(db, warehouse.id, { list, from: input.fromLocation, to: input.toLocation });
    if (list) {
      const known = new Set(located.map((l) => l.code));
      const missing = [...new Set(list)].filter((c) => !known.has(c));
      if (missing.length)
        problems.push({
          field: 'locations',
          message: `No active location ${missing.map((c) => `'${c}'`).join(', ')} in warehouse '${input.warehouse}'`,
        });
    }
    const chosen = input.due ? located.filter((l) => l.due) : located;
    if (located.length === 0 && !list)
      problems.push({
        field: list ? 'locations' : 'fromLocation',
        message: `No active location of warehouse '${input.warehouse}' is in the range`,
      });
    else if (located.length > 0 && chosen.length === 0) {
      problems.push({
        field: 'due',
        message: `No location of warehouse '${input.warehouse}' in the selection is due for a count by its count frequency`,
      });
    }
    locationIds = chosen.map((l) => l.id);
  }
  const wanted = [...new Set(input.assignees.map((a) => a.toLowerCase()))];
  const people = wanted.length ? await activeAccountsByName(db, auth.orgId, wanted) : [];
  const byName = new Map(people.map((p) => [p.name, p.id]));
  const unknown = wanted.filter((n) => !byName.has(n));
  if (unknown.length) problems.push({ field: 'assignees', message: `No active account ${unknown.map((n) => `'${n}'`).join(', ')}` });
  if (problems.length || !warehouse) return { problems };
  return {
    plan: { warehouseId: warehouse.id, description: input.description, blind: input.blind, locationIds, assigneeIds: [...byName.values()] },
    problems,
  };
}

/** Inserts a planned sheet; returns its id. */
export async function insertSheet(tx: Db, auth: AuthContext, plan: SheetPlan): Promise<string> {
  const id = newId();
  const code = await nextSheetCode(tx);
  await insertSheetRows(tx, {
    id,
    orgId: auth.orgId,
    code,
    warehouseId: plan.warehouseId,
    description: plan.description,
    blind: plan.blind,
    assigneeIds: plan.assigneeIds,
    locationIds: plan.locationIds,
    createdBy: auth.accountId,
    audit: auditStamp(auth.accountId),
  });
  return id;
}

export async function createSheet(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/sheet/create'>,
): Promise<CallResponse<'counts/sheet/create'>> {
  const { plan, problems } = await planSheet(deps.db, auth, body);
  if (!plan) throw badInput(problems.map((p) => p.message).join('; '));
  const id = await deps.db.transaction((tx) => insertSheet(tx, auth, plan));
  return sheetAnswer(deps.db, auth, id);
}

export async function getSheet(deps: Deps, auth: AuthContext, body: Body<'counts/sheet/get'>): Promise<CallResponse<'counts/sheet/get'>> {
  const sheet = await theSheet(deps.db, auth, body.sheetId);
  let lines: CounterLine[] = [];
  if (body.location) {
    const loc = await sheetLocation(deps.db, sheet.id, body.location);
    if (!loc) throw badInput(`The location '${body.location}' is not on the count sheet ${sheet.code}`);
    lines = await counterLines(deps.db, sheet, auth.accountId, { locationId: loc.location_id });
  }
  return { ...(await sheetAnswer(deps.db, auth, sheet.id)), locations: await sheetLocations(deps.db, sheet.id), lines };
}

type Transition = SheetTransition;

export async function changeSheetState(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/sheet/start'>,
  transition: Transition,
): Promise<CallResponse<'counts/sheet/start'>> {
  const actor = actorOf(auth);
  await deps.db.transaction(async (tx) => {
    const sheet = await theSheet(tx, auth, body.sheetId, 'update');
    checkRev(`The count sheet ${sheet.code}`, sheet.rev, body._rev);
    if (!mayTransition(transition, sheet.state))
      throw conflict(
        transition === 'start'
          ? `The count sheet ${sheet.code} is ${sheet.state}: it cannot be started`
          : transition === 'submit'
            ? `The count sheet ${sheet.code} is ${sheet.state}: it cannot be sent to review`
            : `The count sheet ${sheet.code} is ${sheet.state}: it cannot be cancelled`,
      );
    if (transition !== 'cancel') mayCount(sheet, auth);
    if (transition === 'submit') await closeCounting(tx, sheet, auth.orgId);
    await setSheetState(tx, sheet.id, SHEET_TRANSITIONS.get(transition)!.to, actor);
  });
  return sheetAnswer(deps.db, auth, body.sheetId);
}

// ---------------------------------------------------------------------------------------------
// Thresholds

async function warehouseOf(deps: Deps, auth: AuthContext, code: string) {
  const warehouse = (await warehousesByCode(deps.db, auth.orgId, [code])).get(code);
  if (!warehouse) throw notFound(`No warehouse '${code}' exists`);
  return warehouse;
}

export async function getThreshold(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/threshold/get'>,
): Promise<CallResponse<'counts/threshold/get'>> {
  const warehouse = await warehouseOf(deps, auth, body.warehouse);
  const row = await thresholdOf(deps.db, warehouse.id);
  return {
    threshold: {
      warehouse: warehouse.code,
      maxQty: row?.max_qty == null ? null : Number(row.max_qty),
      maxPct: row?.max_pct == null ? null : Number(row.max_pct),
    },
  };
}

export async function putThreshold(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/threshold/put'>,
): Promise<CallResponse<'counts/threshold/put'>> {
  const warehouse = await warehouseOf(deps, auth, body.warehouse);
  if (body.maxQty !== null && body.maxQty < 0n) throw badInput('The quantity threshold cannot be negative');
  const maxQty = body.maxQty === null ? null : formatQty(body.maxQty);
  const maxPct = body.maxPct === null ? null : (Math.round(body.maxPct * 100) / 100).toFixed(2);
  await upsertThreshold(deps.db, { orgId: auth.orgId, warehouseId: warehouse.id, maxQty, maxPct, audit: auditStamp(auth.accountId) });
  return getThreshold(deps, auth, body);
}

// ---------------------------------------------------------------------------------------------
// Cycle frequencies

export async function getFrequency(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/frequency/get'>,
): Promise<CallResponse<'counts/frequency/get'>> {
  const warehouse = await warehouseOf(deps, auth, body.warehouse);
  const rows = await frequenciesOf(deps.db, auth.orgId, warehouse.id);
  const own = rows.find((r) => r.code === null);
  return {
    frequency: {
      warehouse: warehouse.code,
      days: own?.days ?? null,
      locations: rows.flatMap((r) => (r.code === null ? [] : [{ code: r.code, days: r.days }])),
    },
  };
}

export async function putFrequency(
  deps: Deps,
  auth: AuthContext,
  body: Body<'counts/frequency/put'>,
): Promise<CallResponse<'counts/frequency/put'>> {
  const warehouse = await warehouseOf(deps, auth, body.warehouse);
  let scopes: Array<{ id: string; locationId: string | null }> = [{ id: warehouse.id, locationId: null }];
  if (body.locations) {
    const codes = [...new Set(body.locations)];
    if (codes.length === 0) throw badInput('Name the locations, or leave them out for the whole warehouse');
    const found = await warehouseLocations(deps.db, warehouse.id, codes);
    const known = new Set(found.map((l) => l.code));
    const missing = codes.filter((c) => !known.has(c));
    if (missing.length) throw badInput(`No location ${missing.map((c) => `'${c}'`).join(', ')} in warehouse '${warehouse.code}'`);
    scopes = found.map((l) => ({ id: l.id, locationId: l.id }));
  }
  const scopeIds = scopes.map((s) => s.id);
  if (body.days === null) await deleteFrequencies(deps.db, auth.orgId, scopeIds);
  else
    await upsertFrequencies(deps.db, {
      orgId: auth.orgId,
      warehouseId: warehouse.id,
      scopeIds,
      days: body.days,
      audit: auditStamp(auth.accountId),
    });
  return getFrequency(deps, auth, body);
}

// ---------------------------------------------------------------------------------------------
// Count requests from other work areas (picking: "Location empty?" answered No, docs/orders.md)

export interface CountRequest {
  warehouseId: string;
  locationId: string;
  /** Who asks and why, shown in the sheet list (at most 200 characters are kept). */
  description: string;
}

/**
 * Asks for a count of one location, in the caller's transaction: a blind one-location sheet, open,
 * with no counters named (anyone with the work area counts it; a sheet without counters hides
 * nothing from whoever has not counted on it), made by the caller. While an open or counting sheet
 * covers the location already, that sheet is the answer and nothing is made (`created` false). The
 * location's row is locked (FOR NO KEY UPDATE: stock and pick writes referring to it do not wait) so
 * two requests for one location at once make one sheet. The caller calls forgetBlind after commit.
 */
export async function requestLocationCount(
  tx: Db,
  auth: AuthContext,
  req: CountRequest,
): Promise<{ sheet: { _id: string; code: string; state: string }; created: boolean }> {
  await lockLocation(tx, auth.orgId, req.locationId);
  const existing = await openSheetOfLocation(tx, auth.orgId, req.locationId);
  if (existing) return { sheet: { _id: existing.id, code: existing.code, state: existing.state }, created: false };
  const id = await insertSheet(tx, auth, {
    warehouseId: req.warehouseId,
    description: req.description.slice(0, 200),
    blind: true,
    locationIds: [req.locationId],
    assigneeIds: [],
  });
  const sheet = (await sheetRow(tx, auth.orgId, id))!;
  return { sheet: { _id: sheet.id, code: sheet.code, state: sheet.state }, created: true };
}
