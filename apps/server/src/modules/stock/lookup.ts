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
import { Coalescer } from '../../lib/coalesce.ts';
import type { Metrics } from '../../lib/metrics.ts';
import {
  lookupAnswer,
  lookupBatchStatement,
  lookupStatement,
  shapeOf,
  stockByStockId,
  type LookupRow,
  type LookupShape,
} from './lookup-repository.ts';
import { movementsOf } from './repository.ts';

/** The most lookups in one statement. */
const LOOKUPS_PER_STATEMENT = 8;

/** A lookup as its statement runs it: its shape, its placeholders' values but the value, and the value. */
interface Pending {
  shape: LookupShape;
  params: Record<string, unknown>;
  value: string;
}

/**
 * The stock lookups of a database: each runs at once while few are out; past that, those that wait
 * for the same shape, organisation and options go to PostgreSQL as one statement (lib/coalesce.ts,
 * lookupBatchSql), so a busy server sends fewer, and every lookup's answer is the same either way.
 */
export function stockLookups(db: Db, running: number, metrics: Pick<Metrics, 'lookupStatement'>) {
  const lookups = new Coalescer<Pending, LookupRow[]>({
    limit: running,
    maxBatch: LOOKUPS_PER_STATEMENT,
    one: (p) => {
      metrics.lookupStatement(1);
      return guarded(() => lookupStatement(db, p.shape)({ ...p.params, value: p.value }));
    },
    many: (ps) => {
      metrics.lookupStatement(ps.length);
      return guarded(() =>
        lookupBatchStatement(db, ps[0]!.shape)(
          ps[0]!.params,
          ps.map((p) => p.value),
        ),
      );
    },
  });

  return async function lookupStock(
    auth: AuthContext,
    body: Body<'stock/lookup'>,
  ): Promise<JsonAnswer<'stock/lookup'> | CallResponse<'stock/lookup'>> {
    // Blind counts (counts/blind.ts): a separate step, from memory for an organisation without a blind sheet in progress.
    const hidden = await blindPlaces(db, auth);
    const shape = shapeOf(body);
    const params = {
      orgId: auth.orgId,
      warehouse: body.warehouse,
      conditionCode: body.conditionCode,
      department: body.department,
      orderType: body.orderType,
      zeroQtyMonths: body.zeroQtyMonths,
      maxRows: body.maxRows,
    };
    // Lookups go together only when everything but the value is the same.
    const rows = await lookups.run(JSON.stringify([shape, params]), { shape, params, value: body.value });
    const answer = lookupAnswer(rows, body.maxRows);
    return hidden.size === 0
      ? new JsonAnswer(answer)
      : withholdBlind(JSON.parse(answer) as CallResponse<'stock/lookup'>, hidden, body.value);
  };
}

export async function getStock(db: Db, auth: AuthContext, body: Body<'stock/get'>): Promise<CallResponse<'stock/get'>> {
  const stock = await stockByStockId(db, auth.orgId, body.stockId);
  if (!stock) throw notFound(`No stock record '${body.stockId}' exists`);
  refuseBlind(await blindPlaces(db, auth), [stock.locationId]);
  const movements = await movementsOf(db, stock._id, MOVEMENT_HISTORY_MAX + 1);
  return { stock, movements: movements.slice(0, MOVEMENT_HISTORY_MAX), moreMovements: movements.length > MOVEMENT_HISTORY_MAX };
}
