import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallPath, CallResponse } from '@floorhand/contract/api';
import { REVIEW_PAGE_MAX } from '@floorhand/contract/counts';
import { call, callFile, type CallOptions } from '../../../lib/api.ts';
import { saveFile } from '../../../lib/save-file.ts';

/** Query keys of the physical inventory screens; every change refreshes them all. */
export const countKeys = {
  all: ['counts'] as const,
  sheets: (filters: CallArgs<'counts/sheet/list'>) => ['counts', 'sheets', filters] as const,
  sheet: (sheetId: string, location: string | null) => ['counts', 'sheet', sheetId, location] as const,
  review: (sheetId: string, onlyVariances: boolean, offset: number) => ['counts', 'review', sheetId, onlyVariances, offset] as const,
};

export const useSheets = (filters: CallArgs<'counts/sheet/list'>) =>
  useQuery({ queryKey: countKeys.sheets(filters), queryFn: () => call('counts/sheet/list', filters), placeholderData: keepPreviousData });

export const useSheet = (sheetId: string, location: string | null) =>
  useQuery({
    queryKey: countKeys.sheet(sheetId, location),
    queryFn: () => call('counts/sheet/get', { sheetId, ...(location ? { location } : {}) }, { quietUnreachable: true }),
  });

/** One page of a sheet's review: `REVIEW_PAGE_MAX` lines from `offset`. */
export const useReview = (sheetId: string, onlyVariances: boolean, offset: number) =>
  useQuery({
    queryKey: countKeys.review(sheetId, onlyVariances, offset),
    queryFn: () => call('counts/review', { sheetId, onlyVariances, offset, limit: REVIEW_PAGE_MAX }),
    placeholderData: keepPreviousData,
  });

/** A call that changes sheets or counts; the caller's `suppress` codes raise no error dialog. */
export function useCountChange<P extends CallPath>(path: P, opts: CallOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<P>) => call(path, args, opts) as Promise<CallResponse<P>>,
    onSettled: () => qc.invalidateQueries({ queryKey: countKeys.all }),
  });
}

/** The printable count sheet (PDF), saved as a file. */
export async function downloadSheetPdf(sheetId: string, code: string): Promise<void> {
  saveFile(await callFile('counts/sheet/pdf', { sheetId }), `${code}.pdf`);
}

export const useFrequency = (warehouse: string | null) =>
  useQuery({
    queryKey: ['counts', 'frequency', warehouse],
    queryFn: () => call('counts/frequency/get', { warehouse: warehouse! }),
    enabled: !!warehouse,
  });
