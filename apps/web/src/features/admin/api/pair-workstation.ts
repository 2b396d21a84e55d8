import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { NOTIFICATION_TIMEOUT_MS } from '@floorhand/contract/constants';
import { ERR } from '@floorhand/contract/errors';
import type { PairReplaceDetail } from '@floorhand/contract/site-admin';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { ApiError, call } from '../../../lib/api.ts';
import { adminKeys } from '../../../lib/call-mutation.ts';

export type PairWorkstationInput = Omit<CallArgs<'admin/workstation/pair'>, 'replace'>;

/** The authorised device a pairing would replace, from the server's 409 (undefined for any other error). */
export function replaceDetailOf(e: unknown): PairReplaceDetail | undefined {
  if (!(e instanceof ApiError) || e.err.code !== ERR.conflict || !e.err.detail) return undefined;
  try {
    const d = JSON.parse(e.err.detail) as Partial<PairReplaceDetail>;
    return typeof d.workstationId === 'string' && typeof d.lastSeen === 'string'
      ? { workstationId: d.workstationId, lastUserName: d.lastUserName ?? null, lastSeen: d.lastSeen }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Pairs the device showing a code. When the code's workstation id is already an authorised device
 * (docs/admin.md, Pairing), nothing is paired until the admin confirms "Replace this device" in
 * `confirmReplace`, shown that device's last account and last seen; answers null if they did not.
 */
export async function pairWorkstation(
  args: PairWorkstationInput,
  confirmReplace: (held: PairReplaceDetail) => Promise<boolean>,
): Promise<CallResponse<'admin/workstation/pair'> | null> {
  try {
    return await call('admin/workstation/pair', args, { suppress: /^ERR_CONFLICT$/ });
  } catch (e) {
    const held = replaceDetailOf(e);
    if (!held) {
      if (e instanceof ApiError && e.err.code === ERR.conflict) void dialogs.error(e.err);
      throw e;
    }
    if (!(await confirmReplace(held))) return null;
    return call('admin/workstation/pair', { ...args, replace: true });
  }
}

/** Pairs a device by the code it shows (asking before it replaces an authorised one); refreshes the workstation list. */
export function usePairWorkstation(opts: { done: string; confirmReplace: (held: PairReplaceDetail) => Promise<boolean> }) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: PairWorkstationInput) => pairWorkstation(args, opts.confirmReplace),
    onSuccess: async (res) => {
      if (!res) return;
      notifications.show({ message: opts.done, color: 'green', autoClose: NOTIFICATION_TIMEOUT_MS });
      await Promise.all([adminKeys.workstations, adminKeys.audit()].map((queryKey) => qc.invalidateQueries({ queryKey })));
    },
  });
}
