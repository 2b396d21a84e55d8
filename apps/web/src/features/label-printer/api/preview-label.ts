import { queryOptions } from '@tanstack/react-query';
import type { CallArgs } from '@floorhand/contract/api';
import { call } from '../../../lib/api.ts';

/** The server's PNG of ZPL as typed (sample data); a refusal's message instead of the dialog. */
export const previewQuery = (args: CallArgs<'label/preview'>) =>
  queryOptions({
    queryKey: ['labels', 'preview', args] as const,
    queryFn: () => call('label/preview', args, { suppress: /^ERR_BAD_INPUT$/ }),
    retry: false,
    staleTime: Infinity,
  });
