/*
 * Blind counts outside the count screens (docs/physical-inventory.md, Blind counts everywhere): while
 * an account counts a blind sheet, no answer shows it the system quantity of stock in that sheet's
 * locations. This module is the one place that decides which locations those are; every read of
 * stock quantities asks it (stock lookup and get, location get and list, item get, the CSV export,
 * labels, picking and shipping answers).
 *
 * Who counts a blind sheet (a "counter"), for a sheet that is open or counting:
 * - a sheet with named counters: those accounts;
 * - a sheet with none (anyone with the work area may count): the accounts that have recorded a count
 *   on it (count_entries), from their first recorded count on. Hiding stock from everyone who could
 *   count would hide it from every stock clerk of the organisation for the length of a count.
 * A sheet in review hides the locations of its lines due for a (blind) recount from the same accounts
 * and from the accounts that recorded an earlier round of them. Posted and cancelled sheets hide
 * nothing; a sheet that is not blind (`syscm`) hides nothing. Who is not a counter (reviewers with
 * physicalInventory Full, administrators) sees quantities; an administrator who counts does not.
 *
 * Cost: one statement per organisation every BLIND_CACHE_MS ("has it any blind sheet in progress?",
 * a partial index: count_sheets_blind_active), and only when it has one, one statement per account
 * every BLIND_CACHE_MS. A stock lookup of an organisation without a blind sheet in progress stays one
 * round trip. Every count call that changes who counts what (create, import, start, submit, cancel,
 * record, decide, post) forgets this node's answers for the organisation when it has finished; another
 * node sees the change within BLIND_CACHE_MS.
 */
import { sql } from 'drizzle-orm';
import type { CallResponse } from '@floorhand/contract/api';
import type { BlindPlace } from '@floorhand/contract/stock';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Db } from '../../db/client.ts';
import { query } from '../../db/sql.ts';
import { forbidden } from '../../lib/errors.ts';

export const BLIND_CACHE_MS = 2000;
const MAX_ENTRIES = 10_000;

/** The locations hidden from one account: location id → where and which sheet. */
export type BlindPlaces = ReadonlyMap<string, BlindPlace>;
const NONE: BlindPlaces = new Map();

interface Cache {
  /** Per organisation: whether it has a blind sheet in progress. */
  orgs: Map<string, { until: number; any: boolean }>;
  /** Per organisation and account: the hidden locations. */
  accounts: Map<string, { until: number; places: BlindPlaces }>;
}
const caches = new WeakMap<Db, Cache>();
const cacheOf = (db: Db): Cache => {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = { orgs: new Map(), accounts: new Map() }));
  return c;
};

/** The states in which a blind sheet hides stock (review: its lines due for a recount only). */
const IN_PROGRESS = sql`s.blind AND s.state IN ('open', 'counting', 'review')`;

/** Forgets this node's answers for an organisation (after a count call that changed sheets, counters or lines). */
export function forgetBlind(db: Db, orgId: string): void {
  const c = cacheOf(db);
  c.orgs.delete(orgId);
  for (const key of c.accounts.keys()) if (key.startsWith(`${orgId}\u0000`)) c.accounts.delete(key);
}

const remember = <V>(map: Map<string, V>, key: string, value: V) => {
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
};

async function orgHasBlindSheet(db: Db, orgId: string, now: number): Promise<boolean> {
  const c = cacheOf(db);
  const hit = c.orgs.get(orgId);
  if (hit && hit.until > now) return hit.any;
  const [row] = await query<{ any: boolean }>(db, sql`SELECT EXISTS (SELECT 1 FROM count_sheets s WHERE s.org_id = ${orgId} AND ${IN_PROGRESS}) AS any`);
  const any = row?.any === true;
  remember(c.orgs, orgId, { until: now + BLIND_CACHE_MS, any });
  return any;
}

/** The locations whose stock quantities are hidden from the caller (usually none, and then from memory). */
export async function blindPlaces(db: Db, auth: Pick<AuthContext, 'orgId' | 'accountId'>): Promise<BlindPlaces> {
  const now = Date.now();
  if (!(await orgHasBlindSheet(db, auth.orgId, now))) return NONE;
  const c = cacheOf(db);
  const key = `${auth.orgId}\u0000${auth.accountId}`;
  const hit = c.accounts.get(key);
  if (hit && hit.until > now) return hit.places;
  const me = auth.accountId;
  // A counter of the sheet: named, or (no one named) has recorded a count on it.
  const counter = sql`(s.assignees @> jsonb_build_array(${me}::text)
    OR (s.assignees = '[]'::jsonb AND EXISTS (SELECT 1 FROM count_lines cl JOIN count_entries ce ON ce.line_id = cl.id WHERE cl.sheet_id = s.id AND ce.account_id = ${me})))`;
  const rows = await query<{ location_id: string; location: string; warehouse: string; sheet: string }>(
    db,
    sql`SELECT DISTINCT ON (p.location_id) p.location_id, l.code AS location, w.code AS warehouse, p.sheet FROM (
        SELECT csl.location_id, s.code AS sheet FROM count_sheets s JOIN count_sheet_locations csl ON csl.sheet_id = s.id
          WHERE s.org_id = ${auth.orgId} AND s.blind AND s.state IN ('open', 'counting') AND ${counter}
        UNION ALL
        SELECT r.location_id, s.code FROM count_sheets s JOIN count_lines r ON r.sheet_id = s.id AND r.status = 'recount'
          WHERE s.org_id = ${auth.orgId} AND s.blind AND s.state = 'review'
            AND (${counter} OR r.previous_counter = ${me} OR EXISTS (SELECT 1 FROM count_entries e WHERE e.line_id = r.id AND e.account_id = ${me}))
      ) p JOIN locations l ON l.id = p.location_id JOIN warehouses w ON w.id = l.warehouse_id
      ORDER BY p.location_id, p.sheet`,
  );
  const places: BlindPlaces = rows.length === 0 ? NONE : new Map(rows.map((r) => [r.location_id, { warehouse: r.warehouse, location: r.location, sheet: r.sheet, message: blindMessage(r) }]));
  remember(c.accounts, key, { until: now + BLIND_CACHE_MS, places });
  return places;
}

/** What a blind counter is told instead of a quantity. */
export const blindMessage = (p: { warehouse: string; location: string; sheet: string }) =>
  `Stock in ${p.warehouse}/${p.location} is being counted blind (count sheet ${p.sheet}); quantities are hidden until the count is in review`;

/** Refuses (403) when any of these locations is hidden from the caller. */
export function refuseBlind(places: BlindPlaces, locationIds: Iterable<string | null | undefined>): void {
  if (places.size === 0) return;
  for (const id of locationIds) {
    const p = id ? places.get(id) : undefined;
    if (p) throw forbidden(p.message);
  }
}

/** The same as refuseBlind, reading the caller's hidden locations first. */
export async function refuseBlindFor(db: Db, auth: Pick<AuthContext, 'orgId' | 'accountId'>, locationIds: Iterable<string | null | undefined>): Promise<void> {
  refuseBlind(await blindPlaces(db, auth), locationIds);
}

type LookupAnswer = CallResponse<'stock/lookup'>;

/**
 * A stock lookup's answer without the groups in hidden locations: `blind` names the places withheld,
 * and the hidden places the value names as a location (an empty location tells its count, 0, too).
 */
export function withholdBlind(answer: LookupAnswer, places: BlindPlaces, value: string): LookupAnswer {
  const withheld = new Map<string, BlindPlace>();
  const groups = (answer.groups ?? []).filter((g) => {
    const p = places.get(g.locationId);
    if (p) withheld.set(g.locationId, p);
    return !p;
  });
  if (answer.matchedAs?.includes('location')) for (const [id, p] of places) if (p.location === value) withheld.set(id, p);
  if (withheld.size === 0) return answer;
  return {
    ...answer,
    groups,
    rowCount: groups.reduce((n, g) => n + g.records.length, 0),
    blind: [...withheld.values()].sort((a, b) => a.warehouse.localeCompare(b.warehouse) || a.location.localeCompare(b.location)),
  };
}
