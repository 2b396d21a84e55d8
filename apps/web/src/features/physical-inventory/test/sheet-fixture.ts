import type { CallResponse } from '@floorhand/contract/api';

type Sheet = NonNullable<CallResponse<'counts/sheet/get'>['sheet']>;

/** A count sheet as the server answers it, for the screens' unit tests: CS1 in MAIN, blind, one location. */
export const sheetFixture = (over: Partial<Sheet> = {}): Sheet => ({
  _id: 'sh1',
  _rev: 1,
  code: 'CS1',
  description: '',
  warehouse: 'MAIN',
  state: 'counting',
  blind: true,
  assignees: [],
  locationCount: 1,
  lineCount: 0,
  createdBy: 'admin',
  createdAt: '2026-11-26T00:00:00Z',
  postedAt: null,
  ...over,
});
