import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallArgs, CallPath, CallResponse } from '@floorhand/contract/api';
import { call, type CallOptions } from '../../../lib/api.ts';
import { countKeys } from './keys.ts';

/** A call that changes sheets or counts; the caller's `suppress` codes raise no error dialog. */
export function useCountChange<P extends CallPath>(path: P, opts: CallOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CallArgs<P>) => call(path, args, opts) as Promise<CallResponse<P>>,
    onSettled: () => qc.invalidateQueries({ queryKey: countKeys.all }),
  });
}
