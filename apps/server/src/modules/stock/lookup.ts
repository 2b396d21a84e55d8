/*
 * Stock lookup and a stock record with its history (stock/lookup, stock/get): the statements are
 * lookup-repository.ts's; here what a blind count withholds from the caller (lib/blind-places.ts).
 */
import type { CallResponse } from '@floorhand/contract/api';
import { MOVEMENT_HISTORY_MAX } from '@floorhand/contract/stock';
import type { Db } from '../../db/client.ts';
import { guarded } from '../../db/errors.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { blindPlaces, refuseBlind, withholdBlind } from '../../lib/blind-places.ts';
import type { Body } from '../../lib/call-body.ts';
import { notFound } from '../../lib/errors.ts';
import { JsonAnswer } from '../../lib/response-serializer.ts';
import { lookupAnswer, lookupStatement, shapeOf, stockByStockId } from './lookup-repository.ts';
import { movementsOf } from './repository.ts';

export async function lookupStock(
  db: Db,
  auth: AuthContext,
  body: Body<'stock/lookup'>,
): Promise<JsonAnswer<'stock/lookup'> | CallResponse<'stock/lookup'>> {
  // Blind counts (counts/blind.ts): a separate step, from memory for an organisation without a blind sheet in progress.
  const hidden = await blindPlaces(db, auth);
  const run = lookupStatement(db, shapeOf(body));
  const rows = await guarded(() =>
    run({
      orgId: auth.orgId,
      value: body.value,
      warehouse: body.warehouse,
      conditionCode: body.conditionCode,
      department: body.department,
      orderType: body.orderType,
      zeroQtyMonths: body.zeroQtyMonths,
      maxRows: body.maxRows,
    }),
  );
  const answer = lookupAnswer(rows, body.maxRows);
  return hidden.size === 0 ? new JsonAnswer(answer) : withholdBlind(JSON.parse(answer) as CallResponse<'stock/lookup'>, hidden, body.value);
}

export async function getStock(db: Db, auth: AuthContext, body: Body<'stock/get'>): Promise<CallResponse<'stock/get'>> {
  const stock = await stockByStockId(db, auth.orgId, body.stockId);
  if (!stock) throw notFound(`No stock record '${body.stockId}' exists`);
  refuseBlind(await blindPlaces(db, auth), [stock.locationId]);
  const movements = await movementsOf(db, stock._id, MOVEMENT_HISTORY_MAX + 1);
  return { stock, movements: movements.slice(0, MOVEMENT_HISTORY_MAX), moreMovements: movements.length > MOVEMENT_HISTORY_MAX };
}
