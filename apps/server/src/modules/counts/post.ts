/*
 * Posting a count sheet (counts/post): every invalid line refuses the post with all its reasons, else
 * the set-based post books the variances and found stock (post-repository.ts) and the sheet is posted.
 * A count "adjusted with the count" (counts/record) posts its one line the same way.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { isSheetDecidable, type InvalidLine } from '@floorhand/contract/counts';
import type { AuthContext } from '../../lib/auth-context.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { badInput, conflict } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import { actorOf } from '../stock/ledger.ts';
import { invalidLines, postLines } from './post-repository.ts';
import { sheetAnswer, theSheet } from './sheet-access.ts';
import { setSheetState } from './sheet-repository.ts';
import { tk } from '@floorhand/contract/i18n';

/** The refusal of a post: how many lines, the first one's problems, and every invalid line in the details. */
export function refusal(invalid: InvalidLine[]) {
  const first = invalid[0]!;
  const where = first.stockId ?? first.location;
  const problems = first.problems.join('; ');
  const message =
    invalid.length === 1
      ? tk(`1 line cannot be posted; the first: ${where}: ${problems}`)
      : tk(`${invalid.length} lines cannot be posted; the first: ${where}: ${problems}`);
  return badInput(message, JSON.stringify({ invalid }));
}

export async function postSheet(deps: Deps, auth: AuthContext, body: Body<'counts/post'>): Promise<CallResponse<'counts/post'>> {
  const actor = actorOf(auth, body.idempotencyKey);
  return idempotentWrite(deps, auth, 'counts/post', body, async (tx) => {
    const sheet = await theSheet(tx, auth, body.sheetId, 'update');
    if (sheet.state === 'posted') throw conflict(`The count sheet ${sheet.code} is posted already`);
    if (!isSheetDecidable(sheet.state)) throw conflict(`The count sheet ${sheet.code} is ${sheet.state}: it is posted from review`);
    const invalid = await invalidLines(tx, auth.orgId, sheet.id);
    if (invalid.length) throw refusal(invalid);
    const posted = await postLines(tx, actor, sheet);
    await setSheetState(tx, sheet.id, 'posted', actor);
    const { sheet: answer } = await sheetAnswer(tx, auth, sheet.id);
    return {
      response: { sheet: answer, movements: posted.movements, created: posted.created },
      changed: { stockIds: posted.stockIds, locationIds: posted.locationIds },
    };
  });
}
