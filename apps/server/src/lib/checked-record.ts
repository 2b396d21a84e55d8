/*
 * The first steps of every single save of a master record (warehouse, location, item, …): the record
 * checked by the record engine against its EntityDef, and an update's row and revision checked.
 */
import type { EntityDef } from '@floorhand/contract/records/schema-model';
import { validateRecord } from '@floorhand/contract/records/validate';
import { checkRev, conflict, invalidRecord as fieldProblem, notFound } from './errors.ts';

/** The record checked against its entity; `_id` and `_rev` are the control fields of an update. */
export function checked<T>(entity: EntityDef, input: Record<string, unknown>): T & { _id?: string; _rev?: number } {
  const result = validateRecord(entity, input);
  if (!result.ok) throw fieldProblem(result.errors);
  const { _id, _rev } = result.value;
  if (_id !== undefined && typeof _id !== 'string') throw fieldProblem({ _id: ["'_id' must be a string"] });
  if (_rev !== undefined && (typeof _rev !== 'number' || !Number.isInteger(_rev)))
    throw fieldProblem({ _rev: ["'_rev' must be a whole number"] });
  return result.value as T & { _id?: string; _rev?: number };
}

/** An update must name a record of this organisation and carry the revision it read. */
export function updatable<R extends { rev: number }>(title: string, id: string, row: R | undefined, rev: number | undefined): R {
  if (!row) throw notFound(`No ${title.toLowerCase()} with id '${id}' exists`);
  if (rev === undefined) throw conflict(`The ${title.toLowerCase()} was sent without its revision (_rev); reload it and try again`);
  checkRev(`The ${title.toLowerCase()}`, row.rev, rev);
  return row;
}
