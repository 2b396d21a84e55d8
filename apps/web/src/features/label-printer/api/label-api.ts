import { useEffect } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import type { LabelJob } from '@floorhand/contract/labels';
import { call } from '../../../lib/api.ts';
import { realtime } from '../../../lib/session.ts';

// The Label Printers page's calls and the live feed (labelAgents, labelJob) that keeps them current.

export const labelKeys = {
  agents: ['labels', 'agents'] as const,
  jobs: ['labels', 'jobs'] as const,
  templates: ['labels', 'templates'] as const,
};

export const agentsQuery = () => queryOptions({ queryKey: labelKeys.agents, queryFn: () => call('label/agent/list', {}) });
export const jobsQuery = () => queryOptions({ queryKey: labelKeys.jobs, queryFn: () => call('label/job/list', { limit: 50 }) });
export const templatesQuery = () =>
  queryOptions({ queryKey: labelKeys.templates, queryFn: () => call('label/template/list', {}), staleTime: 60_000 });

export const useAgents = () => useQuery(agentsQuery());
export const useJobs = () => useQuery(jobsQuery());
export const useTemplates = () => useQuery(templatesQuery());

/**
 * Agents' states and job results as they happen: put into the cached answers. Every time the socket
 * (re)subscribes to labelPrinter, agents and jobs are read again: events sent while it was down, or
 * before the subscription, are not lost (an agent that went away in between shows offline).
 */
export function useLabelFeed(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const offSubscribed = realtime.onSubscribed('labelPrinter', () => {
      void qc.invalidateQueries({ queryKey: labelKeys.agents });
      void qc.invalidateQueries({ queryKey: labelKeys.jobs });
    });
    const offAgents = realtime.on('labelAgents', ({ agents }) => qc.setQueryData(labelKeys.agents, { agents }));
    const offJobs = realtime.on('labelJob', ({ job }) => {
      qc.setQueryData<CallResponse<'label/job/list'>>(labelKeys.jobs, (old) => {
        const jobs: LabelJob[] = old?.jobs ?? [];
        const rest = jobs.filter((j) => j.jobId !== job.jobId);
        return { jobs: [job, ...rest].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, 50) };
      });
      // A list read before this change (a refetch in flight) must not put the old state back.
      void qc.invalidateQueries({ queryKey: labelKeys.jobs });
    });
    return () => {
      offSubscribed();
      offAgents();
      offJobs();
    };
  }, [qc]);
}

function useJobMutation<P extends 'label/print' | 'label/job/reprint' | 'label/job/printRest'>(path: P) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<P>) => call(path, args),
    onSuccess: () => qc.invalidateQueries({ queryKey: labelKeys.jobs }),
  });
}
export const usePrint = () => useJobMutation('label/print');
export const useReprint = () => useJobMutation('label/job/reprint');
export const usePrintRest = () => useJobMutation('label/job/printRest');

export function useSaveTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<'label/template/save'>) => call('label/template/save', args, { suppress: /^ERR_BAD_INPUT$/ }),
    onSuccess: () => qc.invalidateQueries({ queryKey: labelKeys.templates }),
  });
}

/** The server's PNG of ZPL as typed (sample data); a refusal's message instead of the dialog. */
export const previewQuery = (args: CallArgs<'label/preview'>) =>
  queryOptions({
    queryKey: ['labels', 'preview', args] as const,
    queryFn: () => call('label/preview', args, { suppress: /^ERR_BAD_INPUT$/ }),
    retry: false,
    staleTime: Infinity,
  });

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
