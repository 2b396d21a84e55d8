/*
 * Review of a count sheet once counting is done (counts/review), the reviewer's decisions on its lines
 * (counts/decide), and its CSV export (counts/export): with variances for a reviewer once counting is
 * over, else the lines as the counter sees them.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { CHART_LOCATIONS_MAX, isSheetDecidable, isSheetReviewable } from '@floorhand/contract/counts';
import { csvLine } from '@floorhand/contract/csv';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { visibleFeaturesOf } from '../../lib/features.ts';
import { blindPlaces } from '../../lib/blind-places.ts';
import { decideLines, recountLocationIds, reviewLines, reviewSummary, varianceByLocation } from './post-repository.ts';
import { counterLines } from './repository.ts';
import { sheetAnswer, theSheet } from './sheet-access.ts';
import type { SheetRow } from './sheet-repository.ts';

function reviewable(sheet: SheetRow): void {
  if (!isSheetReviewable(sheet.state))
    throw conflict(`The count sheet ${sheet.code} is ${sheet.state}: it is reviewed once counting is done`);
}

/**
 * The locations of the sheet's lines due for a recount that the caller may recount (counts/blind.ts):
 * review and the variance export show their system quantity and first count, so they are closed to
 * such a caller until the recount is in (a reviewer who also recounts would not count blind).
 */
async function recountsOf(deps: Deps, auth: AuthContext, sheet: SheetRow): Promise<string[]> {
  if (sheet.state !== 'review') return [];
  const places = await blindPlaces(deps.db, auth);
  if (places.size === 0) return [];
  const locationIds = await recountLocationIds(deps.db, sheet.id);
  return locationIds.flatMap((id) => places.get(id)?.location ?? []).sort();
}

export async function reviewSheet(deps: Deps, auth: AuthContext, body: Body<'counts/review'>): Promise<CallResponse<'counts/review'>> {
  const sheet = await theSheet(deps.db, auth, body.sheetId);
  reviewable(sheet);
  const mine = await recountsOf(deps, auth, sheet);
  if (mine.length) {
    const named = mine.slice(0, 5).join(', ') + (mine.length > 5 ? ` and ${mine.length - 5} more` : '');
    throw forbidden(
      `You may recount ${mine.length === 1 ? 'a location' : `${mine.length} locations`} of the count sheet ${sheet.code} (${named}); its review is closed to you until they are recounted`,
    );
  }
  const lines = await reviewLines(deps.db, sheet.id, body.onlyVariances, body.offset, body.limit + 1);
  return {
    ...(await sheetAnswer(deps.db, auth, sheet.id)),
    summary: await reviewSummary(deps.db, sheet.id),
    byLocation: await varianceByLocation(deps.db, sheet.id, CHART_LOCATIONS_MAX),
    lines: lines.slice(0, body.limit),
    more: lines.length > body.limit,
  };
}

export async function decide(deps: Deps, auth: AuthContext, body: Body<'counts/decide'>): Promise<CallResponse<'counts/decide'>> {
  if (!body.all && body.lineIds.length === 0) throw badInput('Name the lines to decide, or all');
  return deps.db.transaction(async (tx) => {
    const sheet = await theSheet(tx, auth, body.sheetId, 'update');
    if (!isSheetDecidable(sheet.state)) throw conflict(`The count sheet ${sheet.code} is ${sheet.state}: lines are decided in review`);
    const ids = [...new Set(body.lineIds)];
    const { changed, named } = await decideLines(tx, sheet.id, body.decision, body.all ? 'all' : ids);
    if (!body.all && named < ids.length)
      throw notFound(`${ids.length - named} of the lines named are not on the count sheet ${sheet.code}`);
    return { changed };
  });
}

const EXPORT_MAX = 100_000;

/** The columns every export of a sheet's lines starts with, for reviewers and counters alike. */
const LINE_COLUMNS = ['sheet', 'location', 'stockId', 'partNumber', 'description', 'lot', 'serial', 'status'] as const;

export async function exportSheet(deps: Deps, auth: AuthContext, body: Body<'counts/export'>): Promise<CallResponse<'counts/export'>> {
  const sheet = await theSheet(deps.db, auth, body.sheetId);
  const visible = await visibleFeaturesOf(deps, auth);
  // Variances only once counting is over, and only for reviewers: the export of a blind count leaks nothing.
  const withVariances =
    isSheetReviewable(sheet.state) && visible['physicalInventory.post'] !== false && (await recountsOf(deps, auth, sheet)).length === 0;
  let csv = '';
  if (withVariances) {
    csv += csvLine([...LINE_COLUMNS, 'systemQty', 'counted', 'variance', 'variancePct', 'movedSince', 'locationNow', 'flags', 'countedBy']);
    for (let offset = 0; offset < EXPORT_MAX; offset += 1000) {
      const page = await reviewLines(deps.db, sheet.id, false, offset, 1000);
      for (const l of page) {
        csv += csvLine([
          sheet.code,
          l.location,
          l.stockId,
          l.partNumber,
          l.description,
          l.lot,
          l.serial,
          l.status,
          l.systemQty,
          l.counted,
          l.variance,
          l.variancePct,
          l.movedSince,
          l.locationNow,
          [...l.flags, ...(l.notFound ? ['notFound'] : []), ...(l.found ? ['found'] : [])].join(' '),
          l.countedBy,
        ]);
      }
      if (page.length < 1000) break;
    }
  } else {
    csv += csvLine([...LINE_COLUMNS, 'myCount', ...(sheet.blind ? [] : ['expected'])]);
    const lines = await counterLines(deps.db, sheet, auth.accountId, 'all');
    for (const l of lines)
      csv += csvLine([
        sheet.code,
        l.location,
        l.stockId,
        l.partNumber,
        l.description,
        l.lot,
        l.serial,
        l.status,
        l.myCount,
        ...(sheet.blind ? [] : [l.expected]),
      ]);
  }
  return { csv, fileName: `${sheet.code}${withVariances ? '-variances' : ''}.csv` };
}
