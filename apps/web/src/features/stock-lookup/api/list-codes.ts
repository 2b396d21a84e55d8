import { queryOptions, useQuery } from '@tanstack/react-query';
import { RECORD_LIST_MAX } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { inventoryKeys } from '../../../lib/inventory-api.ts';

export type CodeType = 'conditionCode' | 'department';
export interface CodeOption {
  value: string;
  label: string;
}

export const listCodes = (type: CodeType) => call('record/list', { type, limit: RECORD_LIST_MAX });

/** Active condition codes or departments (record layer) as select options "CODE – text". */
export const codesQuery = (type: CodeType) =>
  queryOptions({
    queryKey: inventoryKeys.codes(type),
    queryFn: () => listCodes(type),
    staleTime: 5 * 60_000,
    select: (r): CodeOption[] =>
      (r.records ?? [])
        .filter((rec) => rec.active !== false)
        .map((rec) => {
          const code = String(rec.code ?? rec._id);
          const text = rec.description ?? rec.name;
          return { value: code, label: typeof text === 'string' && text ? `${code} – ${text}` : code };
        }),
  });

export const useCodes = (type: CodeType) => useQuery(codesQuery(type));
