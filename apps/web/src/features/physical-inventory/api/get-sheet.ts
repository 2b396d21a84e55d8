import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { countKeys } from './keys.ts';

export const useSheet = (sheetId: string, location: string | null) =>
  useQuery({
    queryKey: countKeys.sheet(sheetId, location),
    queryFn: () => call('counts/sheet/get', { sheetId, ...(location ? { location } : {}) }, { quietUnreachable: true }),
  });
