import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { REVIEW_PAGE_MAX } from '@floorhand/contract/counts';
import { call } from '../../../lib/api.ts';
import { countKeys } from './keys.ts';

/** One page of a sheet's review: `REVIEW_PAGE_MAX` lines from `offset`. */
export const useReview = (sheetId: string, onlyVariances: boolean, offset: number) =>
  useQuery({
    queryKey: countKeys.review(sheetId, onlyVariances, offset),
    queryFn: () => call('counts/review', { sheetId, onlyVariances, offset, limit: REVIEW_PAGE_MAX }),
    placeholderData: keepPreviousData,
  });
