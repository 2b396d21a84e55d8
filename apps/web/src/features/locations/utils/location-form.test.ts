import { describe, expect, it } from 'vitest';
import { locationEntity, type Location } from '@floorhand/contract/locations';
import { validateRecord } from '@floorhand/contract/records/validate';
import { readPrefs } from '../../../lib/prefs.ts';
import { LOCATION_PREFS } from '../hooks/use-location-prefs.ts';
import { locationFormEntity, locationFormValue } from './location-form.ts';

const stored: Location = {
  _id: 'l1',
  _rev: 2,
  x$audit: { create: { user: 'u', ts: 't' }, modify: { user: 'u', ts: 't' } },
  warehouseId: 'w1',
  warehouse: 'MAIN',
  code: 'A-01-1',
  description: 'Aisle A',
  type: 'shelf',
  active: true,
  counts: { records: 1, items: 1, quantity: 5 },
};

describe('location preferences', () => {
  it('default to all warehouses, active only, no search', () => {
    expect(readPrefs(LOCATION_PREFS, undefined)).toEqual({ filterWarehouse: null, filterActive: true, lookupVal: '' });
  });
});

describe('the location form', () => {
  it('chooses the warehouse from the known ones', () => {
    const entity = locationFormEntity(['MAIN', 'EAST'], false);
    expect(entity.fields.find((f) => f.name === 'warehouse')?.conditions?.valid).toEqual(['MAIN', 'EAST']);
    expect(entity.idFieldName).toBe('code');
    expect(validateRecord(entity, { warehouse: 'NORTH', code: 'X1' }).ok).toBe(false);
    expect(validateRecord(entity, { warehouse: 'EAST', code: 'X1' }).ok).toBe(true);
  });

  it('locks the warehouse and keeps the code editable when editing', () => {
    expect(locationFormEntity(['MAIN'], true).idFieldName).toBe('warehouse');
    // Without warehouses loaded it is the contract's plain text field.
    expect(locationFormEntity([], false).fields).toEqual(locationEntity.fields);
  });

  it('starts from the entity fields and control fields only, so the record validates', () => {
    const value = locationFormValue(stored, {});
    expect(value).toEqual({ _id: 'l1', _rev: 2, warehouse: 'MAIN', code: 'A-01-1', description: 'Aisle A', type: 'shelf', active: true });
    expect(validateRecord(locationFormEntity(['MAIN'], true), value).ok).toBe(true);
    expect(locationFormValue(null, { warehouse: 'EAST' })).toEqual({ warehouse: 'EAST', type: 'bin', active: true });
  });
});
