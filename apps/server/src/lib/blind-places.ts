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
 * A sheet in review hides the locations of its lines due for a recount (a recount is blind on every
 * sheet, blind or not) from the same accounts, from the accounts that recorded an earlier round of
 * them, and from every account that may count but not review (physicalInventory without
 * physicalInventory.post): a recount is open to anyone but the line's last counter, named on the sheet
 * or not, so any of them may be the recounter, from before their first scan (issue 25). Posted and cancelled sheets hide nothing; a sheet that is not blind
 * (`syscm`) hides nothing while it is counted. Who is not a counter (reviewers with
 * physicalInventory.post, administrators) sees quantities; an administrator who counts does not.
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
import type { AuthContext } from './auth-context.ts';
import type { Db } from '../db/client.ts';
import { query } from '../db/sql.ts';
import { forbidden } from './errors.ts';
import { visibleFeaturesOf } from './features.ts';
import { tk } from '@floorhand/contract/i18n';

export const BLIND_CACHE_MS = 2000;
const MAX_ENTRIES = 10_000;

/** The locations hidden from one account: location id → where and which sheet. */
export type BlindPlaces = ReadonlyMap<string, BlindPlace>;
const NONE: BlindPlaces = new Map();

interface Cache {
  /** Per organisation: whether it has a blind sheet in progress. */
  orgs: Map<string, { until: number } & OrgBlind>;
  /** Per organisation and account: the hidden locations. */
  accounts: Map<string, { until: number; places: BlindPlaces }>;
}
const caches = new WeakMap<Db, Cache>();
const cacheOf = (db: Db): Cache => {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = { orgs: new Map(), accounts: new Map() }));
  return c;
};

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

/** Whether an organisation has a blind sheet being counted, or a sheet in review with lines due for a recount. */
interface OrgBlind {
  any: boolean;
  recount: boolean;
}

async function orgBlind(db: Db, orgId: string, now: number): Promise<OrgBlind> {
  const c = cacheOf(db);
  const hit = c.orgs.get(orgId);
  if (hit && hit.until > now) return hit;
  const [row] = await query<{ counting: boolean; recount: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM count_sheets s WHERE s.org_id = ${orgId} AND s.blind AND s.state IN ('open', 'counting', 'review')) AS counting,
      EXISTS (SELECT 1 FROM count_sheets s JOIN count_lines r ON r.sheet_id = s.id AND r.status = 'recount' WHERE s.org_id = ${orgId} AND s.state = 'review') AS recount`,
  );
  const recount = row?.recount === true;
  const answer = { until: now + BLIND_CACHE_MS, any: row?.counting === true || recount, recount };
  remember(c.orgs, orgId, answer);
  return answer;
}

/** The locations whose stock quantities are hidden from the caller (usually none, and then from memory). */
export async function blindPlaces(db: Db, auth: AuthContext): Promise<BlindPlaces> {
  const now = Date.now();
  const org = await orgBlind(db, auth.orgId, now);
  if (!org.any) return NONE;
  const c = cacheOf(db);
  const key = `${auth.orgId}\u0000${auth.accountId}`;
  const hit = c.accounts.get(key);
  if (hit && hit.until > now) return hit.places;
  const me = auth.accountId;
  // May be a recounter: counts, and does not review (features are read only while some sheet has a recount due).
  const features = org.recount ? await visibleFeaturesOf({ db }, auth) : undefined;
  const mayRecount = features !== undefined && features.physicalInventory !== false && features['physicalInventory.post'] === false;
  // A counter of the sheet: named, or (no one named) has recorded a count on it.
  const counter = sql`(s.assignees @> jsonb_build_array(${me}::text)
    OR (s.assignees = '[]'::jsonb AND EXISTS (SELECT 1 FROM count_lines cl JOIN count_entries ce ON ce.line_id = cl.id WHERE cl.sheet_id = s.id AND ce.account_id = ${me})))`;
  const rows = await query<{ location_id: string; location: string; warehouse: string; sheet: string; recount: boolean }>(
    db,
    sql`SELECT DISTINCT ON (p.location_id) p.location_id, l.code AS location, w.code AS warehouse, p.sheet, p.recount FROM (
        SELECT csl.location_id, s.code AS sheet, false AS recount FROM count_sheets s JOIN count_sheet_locations csl ON csl.sheet_id = s.id
          WHERE s.org_id = ${auth.orgId} AND s.blind AND s.state IN ('open', 'counting') AND ${counter}
        UNION ALL
        SELECT r.location_id, s.code, true FROM count_sheets s JOIN count_lines r ON r.sheet_id = s.id AND r.status = 'recount'
          WHERE s.org_id = ${auth.orgId} AND s.state = 'review'
            AND (${counter} OR r.previous_counter = ${me} OR EXISTS (SELECT 1 FROM count_entries e WHERE e.line_id = r.id AND e.account_id = ${me})
              OR ${mayRecount})
      ) p JOIN locations l ON l.id = p.location_id JOIN warehouses w ON w.id = l.warehouse_id
      ORDER BY p.location_id, p.sheet`,
  );
  const places: BlindPlaces =
    rows.length === 0
      ? NONE
      : new Map(
          rows.map((r) => [
            r.location_id,
            {
              warehouse: r.warehouse,
              location: r.location,
              sheet: r.sheet,
              message: blindMessage(r),
              ...(r.recount ? { recount: true } : {}),
            },
          ]),
        );
  remember(c.accounts, key, { until: now + BLIND_CACHE_MS, places });
  return places;
}

/** What a blind counter is told instead of a quantity. */
export const blindMessage = (p: { warehouse: string; location: string; sheet: string; recount?: boolean }) =>
  p.recount
    ? tk(
        `Stock in ${p.warehouse}/${p.location} is due for a blind recount (count sheet ${p.sheet}); quantities are hidden from its recounters until it is recounted`,
      )
    : tk(
        `Stock in ${p.warehouse}/${p.location} is being counted blind (count sheet ${p.sheet}); quantities are hidden until the count is in review`,
      );

/** Refuses (403) when any of these locations is hidden from the caller. */
export function refuseBlind(places: BlindPlaces, locationIds: Iterable<string | null | undefined>): void {
  if (places.size === 0) return;
  for (const id of locationIds) {
    const p = id ? places.get(id) : undefined;
    if (p) throw forbidden(p.message);
  }
}

/** The same as refuseBlind, reading the caller's hidden locations first. */
export async function refuseBlindFor(db: Db, auth: AuthContext, locationIds: Iterable<string | null | undefined>): Promise<void> {
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
