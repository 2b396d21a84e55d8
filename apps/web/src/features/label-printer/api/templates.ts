import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { labelKeys } from './keys.ts';

export const templatesQuery = () =>
  queryOptions({ queryKey: labelKeys.templates, queryFn: () => call('label/template/list', {}), staleTime: 60_000 });

export const useTemplates = () => useQuery(templatesQuery());

export function useSaveTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<'label/template/save'>) => call('label/template/save', args, { suppress: /^ERR_BAD_INPUT$/ }),
    onSuccess: () => qc.invalidateQueries({ queryKey: labelKeys.templates }),
  });
}
