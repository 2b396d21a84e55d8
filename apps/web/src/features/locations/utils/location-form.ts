import { locationEntity, type Location } from '@floorhand/contract/locations';
import type { EntityDef } from '@floorhand/contract/records/schema-model';

/**
 * The location form's entity: the contract's locationEntity with the warehouse chosen from the known
 * warehouses (a select). When editing, the warehouse is what the form locks (a location cannot move
 * to another warehouse) while the code stays editable, so the warehouse takes the id field's place.
 */
export function locationFormEntity(warehouseCodes: readonly string[], editing: boolean): EntityDef {
  return {
    ...locationEntity,
    idFieldName: editing ? 'warehouse' : locationEntity.idFieldName,
    fields: locationEntity.fields.map((f) =>
      f.name === 'warehouse' && warehouseCodes.length > 0 ? { ...f, conditions: { ...f.conditions, valid: [...warehouseCodes] } } : f,
    ),
  };
}

/** The form's starting value: the entity's fields and the control fields of an update, nothing else. */
export function locationFormValue(location: Location | null, defaults: { warehouse?: string | null }): Record<string, unknown> {
  if (!location) return { ...(defaults.warehouse ? { warehouse: defaults.warehouse } : {}), type: 'bin', active: true };
  const { _id, _rev, warehouse, code, description, type, active } = location;
  return { _id, _rev, warehouse, code, description, type, active };
}
