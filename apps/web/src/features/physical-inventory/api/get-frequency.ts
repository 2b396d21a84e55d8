import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export const useFrequency = (warehouse: string | null) =>
  useQuery({
    queryKey: ['counts', 'frequency', warehouse],
    queryFn: () => call('counts/frequency/get', { warehouse: warehouse! }),
    enabled: !!warehouse,
  });
