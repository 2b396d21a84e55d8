/*
 * What every call on one count sheet starts with: the sheet (or not found), its answer, and whether
 * the caller may count on it.
 */
import type { AuthContext } from '../../lib/auth-context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { Db } from '../../db/client.ts';
import { sheetById, sheetRow, type SheetRow } from './sheet-repository.ts';

export async function theSheet(db: Db, auth: AuthContext, sheetId: string, lock?: 'update' | 'share'): Promise<SheetRow> {
  const row = await sheetRow(db, auth.orgId, sheetId, lock);
  if (!row) throw notFound(`No count sheet '${sheetId}' exists`);
  return row;
}

export async function sheetAnswer(db: Db, auth: AuthContext, id: string) {
  return { sheet: await sheetById(db, auth.orgId, id) };
}

/** Whether the caller may count on the sheet: an assignee, or anyone when it has none. */
export function mayCount(sheet: SheetRow, auth: AuthContext): void {
  if (sheet.assignees.length > 0 && !sheet.assignees.includes(auth.accountId))
    throw forbidden(`The count sheet ${sheet.code} is assigned to other counters`);
}
