import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';

/** Every answer of the clock is shown on the clock itself (no dialog for the next worker to close). */
const QUIET = /.*/;

/** A badge at the time clock: punches, or answers duplicate / missedPunch. */
export const punchBadge = (args: CallArgs<'timeclock/punch'>) => call('timeclock/punch', args, { suppress: QUIET });

export const uploadClockPhoto = (dataUrl: string) => call('media/upload', { dataUrl, purpose: 'clockPhoto' }, { suppress: QUIET });

const punchKeys = {
  list: (args: CallArgs<'timeclock/punches/list'>) => ['timeclock', 'punches', args] as const,
  all: ['timeclock', 'punches'] as const,
};

export const usePunchList = (args: CallArgs<'timeclock/punches/list'>) =>
  useQuery({ queryKey: punchKeys.list(args), queryFn: () => call('timeclock/punches/list', args) });

export function useCorrectPunch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<'timeclock/correct'>) => call('timeclock/correct', args),
    onSuccess: () => qc.invalidateQueries({ queryKey: punchKeys.all }),
  });
}
