import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CallResponse } from '@floorhand/contract/api';
import type { LabelJob } from '@floorhand/contract/labels';
import { realtime } from '../../../lib/session.ts';

// The Label Printers page's query keys, and the live feed (labelAgents, labelJob) that keeps the cached answers current.

export const labelKeys = {
  agents: ['labels', 'agents'] as const,
  jobs: ['labels', 'jobs'] as const,
  templates: ['labels', 'templates'] as const,
};

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
