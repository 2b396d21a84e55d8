import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';

/** Every answer of the clock is shown on the clock itself (no dialog for the next worker to close). */
const QUIET = /.*/;

/** A badge at the time clock: punches, or answers duplicate / missedPunch. */
export const punchBadge = (args: CallArgs<'timeclock/punch'>) => call('timeclock/punch', args, { suppress: QUIET });

export const uploadClockPhoto = (dataUrl: string) => call('media/upload', { dataUrl, purpose: 'photo' }, { suppress: QUIET });

const punchKeys = { list: (args: CallArgs<'timeclock/punches/list'>) => ['timeclock', 'punches', args] as const, all: ['timeclock', 'punches'] as const };

export const usePunchList = (args: CallArgs<'timeclock/punches/list'>) => useQuery({ queryKey: punchKeys.list(args), queryFn: () => call('timeclock/punches/list', args) });

export function useCorrectPunch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<'timeclock/correct'>) => call('timeclock/correct', args),
    onSuccess: () => qc.invalidateQueries({ queryKey: punchKeys.all }),
  });
}

/** The period's punches as CSV, saved as a file by the browser. */
export async function downloadPunchesCsv(args: CallArgs<'timeclock/punches/export'>): Promise<void> {
  const { csv, fileName } = await call('timeclock/punches/export', args);
  if (csv === undefined) return;
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName ?? 'punches.csv';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
