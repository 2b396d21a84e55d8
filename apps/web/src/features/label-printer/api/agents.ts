import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';
import { labelKeys } from './keys.ts';

export const agentsQuery = () => queryOptions({ queryKey: labelKeys.agents, queryFn: () => call('label/agent/list', {}) });

export const useAgents = () => useQuery(agentsQuery());

/** label/agent/create and label/agent/revoke (administrators): the agents' list is read again after either. */
export function useCreateAgent() {
  const qc = useQueryClient();
  return useMutation({
    // A taken agent id or a bad one is said in the form, not in a dialog.
    mutationFn: (args: CallArgs<'label/agent/create'>) => call('label/agent/create', args, { suppress: /^ERR_CONFLICT$|^ERR_BAD_INPUT$/ }),
    onSuccess: () => qc.invalidateQueries({ queryKey: labelKeys.agents }),
  });
}

export function useRevokeAgent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<'label/agent/revoke'>) => call('label/agent/revoke', args),
    onSuccess: () => qc.invalidateQueries({ queryKey: labelKeys.agents }),
  });
}
