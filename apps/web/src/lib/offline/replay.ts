import { ERR, type ServerErr } from '@floorhand/contract/errors';
import { OUTBOX_MAX_FAULTS, OUTBOX_SIGN_IN_CODES, isUnreachable, type OfflineCall } from '@floorhand/contract/offline';
import { tk } from '@floorhand/contract/i18n';

/**
 * One floor write the server could not be reached for, kept on the device until it is (issue 27).
 * Its id is the request's idempotency key: however often it is sent (a lost answer, two tabs, a
 * reload mid-replay), the server applies it once and answers what it stored.
 */
export interface OutboxItem {
  /** The idempotency key of the request (also in `args`). */
  id: string;
  /** The order it was taken in on this device. */
  seq: number;
  path: OfflineCall;
  args: Record<string, unknown>;
  /** What the worker did, in their words ("Adjust S000000085 to 12"). */
  label: string;
  /** Who did it: replayed as them, listed to them. */
  person: { accountId: string; name: string };
  /** The tokens and ids it was taken with, for a replay after another person signed in on the device. */
  auth: { authToken: string | null; humanToken: string | null; orgId: string; siteId: string };
  /** The device's time when the worker did it (ISO). */
  deviceTime: string;
  /** queued: waits for the server; signIn: the server wants its person to sign in again; refused: the server said no. */
  state: 'queued' | 'signIn' | 'refused';
  error?: ServerErr;
  /** Server faults met so far. */
  faults: number;
  /**
   * A picture taken with it (the time clock's photo of the scan), uploaded (media/upload) just before
   * the item is sent, its media id then put in `args[arg]`.
   */
  upload?: { dataUrl: string; purpose: 'clockPhoto'; arg: string };
}

/** Where the items are kept: IndexedDB in the browser, memory in tests and the bench. */
export interface OutboxStore {
  list(): Promise<OutboxItem[]>;
  put(item: OutboxItem): Promise<void>;
  remove(id: string): Promise<void>;
}

export function memoryStore(): OutboxStore {
  const items = new Map<string, OutboxItem>();
  return {
    list: async () => [...items.values()].map((i) => structuredClone(i)),
    put: async (item) => void items.set(item.id, structuredClone(item)),
    remove: async (id) => void items.delete(id),
  };
}

/** Sends one item; a network failure answers status 0. */
export type ItemSender = (item: OutboxItem) => Promise<{ status: number; json: Record<string, unknown> }>;

export interface ReplayResult {
  sent: number;
  refused: number;
  /** The server could not be reached (or is busy): the rest waits for the next try. */
  stopped: boolean;
}

/**
 * Replays the queued items in the order they were taken. Each is settled by the server's answer:
 * done (removed), refused (kept with the reason, for the worker to see), or waiting for its person
 * to sign in again. A refusal does not hold back the items behind it: the server judges each one.
 * The run stops when the server cannot be reached, is rate limiting, or faults (5xx); an item that
 * faults `OUTBOX_MAX_FAULTS` times is set aside as refused, so it cannot hold the queue for ever.
 */
export async function replayItems(
  store: OutboxStore,
  send: ItemSender,
  opts: { person: () => string | null; onDone?: (item: OutboxItem, answer: Record<string, unknown>) => void; onChange?: () => void },
): Promise<ReplayResult> {
  const result: ReplayResult = { sent: 0, refused: 0, stopped: false };
  const items = (await store.list()).sort((a, b) => a.seq - b.seq);
  for (const item of items) {
    if (item.state === 'refused') continue;
    if (item.state === 'signIn' && item.person.accountId !== opts.person()) continue;
    let answer: { status: number; json: Record<string, unknown> };
    try {
      answer = await send(item);
    } catch {
      answer = { status: 0, json: {} };
    }
    if (isUnreachable(answer.status) || answer.status === 429) {
      result.stopped = true;
      break;
    }
    const err = answer.json.err as ServerErr | undefined;
    if (!err && answer.status < 400) {
      await store.remove(item.id);
      result.sent++;
      opts.onDone?.(item, answer.json);
      opts.onChange?.();
      continue;
    }
    if (err && OUTBOX_SIGN_IN_CODES.includes(err.code)) {
      await store.put({ ...item, state: 'signIn', error: err });
      opts.onChange?.();
      continue;
    }
    if (answer.status >= 500) {
      const faults = item.faults + 1;
      const fault: ServerErr = err ?? { code: ERR.generic, message: tk(`The server answered ${answer.status}`) };
      if (faults < OUTBOX_MAX_FAULTS) {
        await store.put({ ...item, faults, error: fault });
        result.stopped = true;
        break;
      }
      await store.put({ ...item, faults, state: 'refused', error: fault });
    } else {
      await store.put({
        ...item,
        state: 'refused',
        error: err ?? { code: ERR.generic, message: tk(`The server answered ${answer.status}`) },
      });
    }
    result.refused++;
    opts.onChange?.();
  }
  return result;
}
