import type { CallArgs } from '@floorhand/contract/api';
import type { LaborEntry, Task } from '@floorhand/contract/labor';
import type { OutboxItem } from '../../../lib/offline/replay.ts';

/** A running entry as the screen shows it: the server's, or one whose start waits in the outbox. */
/** `unchecked`: a task this device has not read (started by its code offline): only its code is known. */
export type ShownEntry = LaborEntry & { queued?: boolean; unchecked?: boolean };

type TaskInfo = Pick<Task, 'taskCode' | 'kind' | 'orderNumber' | 'operationNumber' | 'description'>;
/** Tasks this device has read (a lookup, a running entry): a start queued offline shows what it is. */
const known = new Map<string, TaskInfo>();
export const rememberTask = (task: TaskInfo): void =>
  void known.set(task.taskCode, {
    taskCode: task.taskCode,
    kind: task.kind,
    orderNumber: task.orderNumber,
    operationNumber: task.operationNumber,
    description: task.description,
  });
export const knownTask = (code: string): TaskInfo | undefined => known.get(code);

/** The id a queued start's entry has on this screen until the server gives it one. */
export const QUEUED_ENTRY_PREFIX = 'queued:';
export const isQueuedEntry = (id: string): boolean => id.startsWith(QUEUED_ENTRY_PREFIX);

/**
 * What the worker runs, as far as the device knows (issue 27): the server's running entries with the
 * worker's queued starts and stops applied in the order they were taken. Items the server refused
 * are left out (the outbox list says why), so a refused start never shows as running.
 */
export function withQueued(
  running: readonly LaborEntry[],
  items: readonly OutboxItem[],
  person: string | null,
  unknownDescription: string,
): ShownEntry[] {
  let shown: ShownEntry[] = [...running];
  for (const item of items) {
    if (item.state === 'refused' || item.person.accountId !== person) continue;
    if (item.path === 'labor/start') {
      const a = item.args as CallArgs<'labor/start'>;
      const at = a.deviceTime ?? item.deviceTime;
      const info = known.get(a.taskCode);
      const entry: ShownEntry = {
        id: `${QUEUED_ENTRY_PREFIX}${item.id}`,
        accountId: person ?? '',
        worker: item.person.name,
        taskCode: a.taskCode,
        kind: info?.kind ?? 'wos',
        description: info?.description ?? unknownDescription,
        orderNumber: info?.orderNumber ?? null,
        operationNumber: info?.operationNumber ?? null,
        batchId: '',
        mode: a.mode,
        startedAt: at,
        countedFrom: at,
        stoppedAt: null,
        seconds: 0,
        roundedSeconds: 0,
        qtyDone: null,
        complete: false,
        endedAtPunchOut: false,
        queued: true,
        ...(info ? {} : { unchecked: true }),
      };
      if (a.mode === 'single') shown = [entry];
      else if (!shown.some((e) => e.taskCode === a.taskCode)) shown = [...shown, entry];
    } else if (item.path === 'labor/stop') {
      const a = item.args as CallArgs<'labor/stop'>;
      shown = shown.filter((e) => (a.entryId ? e.id !== a.entryId : e.taskCode !== a.taskCode));
    }
  }
  return shown;
}
