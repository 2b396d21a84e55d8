import type { CallArgs } from '@floorhand/contract/api';

/** Query keys of the physical inventory screens; every change refreshes them all. */
export const countKeys = {
  all: ['counts'] as const,
  sheets: (filters: CallArgs<'counts/sheet/list'>) => ['counts', 'sheets', filters] as const,
  sheet: (sheetId: string, location: string | null) => ['counts', 'sheet', sheetId, location] as const,
  review: (sheetId: string, onlyVariances: boolean, offset: number) => ['counts', 'review', sheetId, onlyVariances, offset] as const,
};
