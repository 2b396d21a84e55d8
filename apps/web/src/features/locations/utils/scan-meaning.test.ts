import { describe, expect, it } from 'vitest';
import { locationsScanMeaning, SAVE_LOCATION_FIRST, SAVE_THIS_LOCATION_FIRST } from './scan-meaning.ts';

describe('what a scan means on Locations', () => {
  it('searches the list while no location is being edited', () => {
    expect(locationsScanMeaning({ editing: null })).toEqual({ kind: 'search' });
  });

  it('is refused while the editor is open, naming the location being edited', () => {
    expect(locationsScanMeaning({ editing: '' })).toEqual({ kind: 'refused', message: SAVE_LOCATION_FIRST, params: {} });
    expect(locationsScanMeaning({ editing: 'A-01-1' })).toEqual({
      kind: 'refused',
      message: SAVE_THIS_LOCATION_FIRST,
      params: { code: 'A-01-1' },
    });
  });
});
