import type { BarcodeFormat } from '@floorhand/contract/constants';

export type ScanSource = 'camera' | 'file' | 'wedge' | 'input';
/** A keyboard wedge or a typed entry does not say which symbology it read. */
export const UNKNOWN_FORMAT = 'UNKNOWN';
export type ScanFormat = BarcodeFormat | typeof UNKNOWN_FORMAT;

export type Scan = { text: string; format: ScanFormat; source: ScanSource };
export type ScanHandler = (scan: Scan) => void;
export type SubscribeOptions = {
  /** Counting screens: the same code scanned again is a second item, not a bounce. */
  allowRepeats?: boolean;
};

/**
 * The same text from the same source within this window is one scan. It slides: every sighting
 * restarts it, so a code held in front of the camera is delivered once, not once per window.
 * 1500 ms is longer than a camera dwell on one label and a wedge trigger bounce, and shorter than
 * the time a worker needs to put one item down and scan the next.
 */
export const SCAN_REPEAT_WINDOW_MS = 1500;
/** Scans kept while no screen listens (route change, dialog teardown). Overflow drops the oldest. */
export const SCAN_QUEUE_LIMIT = 100;
/**
 * How long a scan waits for a screen before it is said to be unread (`setUnread`). Longer than a
 * route change loading its screen on a slow handheld; short enough that a scan made on a page that
 * reads none (an administration page) is not looked up minutes later on the next work screen.
 */
export const SCAN_UNREAD_MS = 5000;

export type ScanBusOptions = {
  now?: () => number;
  repeatWindowMs?: number;
  queueLimit?: number;
  onHandlerError?: (error: unknown, scan: Scan) => void;
};

export type ScanBus = {
  subscribe: (handler: ScanHandler, options?: SubscribeOptions) => () => void;
  publish: (scan: Scan) => void;
  /** Number of scans waiting for a subscriber. */
  pendingCount: () => number;
  /**
   * A handler that sees every published scan before the screens (a kiosk worker's session: a badge
   * switches the worker); when it answers true the scan is its own and no screen gets it. It hands a
   * scan it looked at and did not want to the screens with `toScreens`. Null removes it.
   */
  setInterceptor: (interceptor: ((scan: Scan) => boolean) | null) => void;
  /** Publishes past the interceptor, straight to the screens. */
  toScreens: (scan: Scan) => void;
  /** Forgets the scans seen, so the next one is no repeat (a screen whose state changed, e.g. a prompt cancelled). */
  forgetRepeats: () => void;
  /**
   * Scans no screen took within `afterMs` leave the queue and go to `handler` (the shell says they were
   * not read) instead of waiting for whichever screen opens next. Null keeps them (the default).
   */
  setUnread: (handler: ((scans: Scan[]) => void) | null, afterMs?: number) => void;
};

type Subscriber = { handler: ScanHandler; allowRepeats: boolean };
type Pending = { scan: Scan; at: number };

export function createScanBus(options: ScanBusOptions = {}): ScanBus {
  const now = options.now ?? (() => performance.now());
  const windowMs = options.repeatWindowMs ?? SCAN_REPEAT_WINDOW_MS;
  const queueLimit = options.queueLimit ?? SCAN_QUEUE_LIMIT;
  const onHandlerError = options.onHandlerError ?? ((error: unknown) => console.error('Scan handler failed', error));

  const stack: Subscriber[] = [];
  const queue: Pending[] = [];
  const lastSeen = new Map<string, number>();

  // Camera frames repeat at the frame rate, so camera repeats are never counted, even on counting screens.
  const isRepeat = ({ scan, at }: Pending, allowRepeats: boolean): boolean => {
    const key = `${scan.source}\u0000${scan.text}`;
    const previous = lastSeen.get(key);
    lastSeen.set(key, at);
    for (const [k, t] of lastSeen) if (at - t > windowMs) lastSeen.delete(k);
    const withinWindow = previous !== undefined && at - previous <= windowMs;
    return withinWindow && !(allowRepeats && scan.source !== 'camera');
  };

  const deliver = (pending: Pending, subscriber: Subscriber): void => {
    if (isRepeat(pending, subscriber.allowRepeats)) return;
    try {
      subscriber.handler(pending.scan);
    } catch (error) {
      onHandlerError(error, pending.scan);
    }
  };

  // The repeat rule is applied at delivery, with the original time, because only the receiving
  // screen knows whether it counts repeats.
  const flush = (): void => {
    let top: Subscriber | undefined;
    let next: Pending | undefined;
    while ((top = stack.at(-1)) && (next = queue.shift())) deliver(next, top);
  };

  let unread: { handler: (scans: Scan[]) => void; afterMs: number } | null = null;
  let unreadTimer: ReturnType<typeof setTimeout> | undefined;
  // One timer, for the oldest waiting scan; when it fires the scans that waited too long are unread.
  const watchQueue = (): void => {
    if (!unread || unreadTimer !== undefined || queue.length === 0) return;
    const { afterMs } = unread;
    unreadTimer = setTimeout(
      () => {
        unreadTimer = undefined;
        if (!unread) return;
        const stale: Scan[] = [];
        while (queue[0] && now() - queue[0].at >= afterMs) stale.push(queue.shift()!.scan);
        if (stale.length > 0) unread.handler(stale);
        watchQueue();
      },
      Math.max(0, queue[0]!.at + afterMs - now()),
    );
  };

  let interceptor: ((scan: Scan) => boolean) | null = null;
  const toScreens = (scan: Scan): void => {
    queue.push({ scan: { ...scan }, at: now() });
    if (queue.length > queueLimit) queue.shift();
    flush();
    watchQueue();
  };

  return {
    subscribe(handler, { allowRepeats = false } = {}) {
      const subscriber: Subscriber = { handler, allowRepeats };
      stack.push(subscriber);
      // Later, so the screen already holds its unsubscribe (it may leave on its first scan) and a
      // React StrictMode mount-unmount-mount hands the queue to the surviving instance.
      queueMicrotask(flush);
      return () => {
        const index = stack.lastIndexOf(subscriber);
        if (index >= 0) stack.splice(index, 1);
      };
    },
    publish(scan) {
      if (interceptor?.({ ...scan })) return;
      toScreens(scan);
    },
    toScreens,
    forgetRepeats: () => lastSeen.clear(),
    setInterceptor(next) {
      interceptor = next;
    },
    pendingCount: () => queue.length,
    setUnread(handler, afterMs = SCAN_UNREAD_MS) {
      clearTimeout(unreadTimer);
      unreadTimer = undefined;
      unread = handler ? { handler, afterMs } : null;
      watchQueue();
    },
  };
}

/** The one scanning service of the app; tests and benchmarks make their own with createScanBus. */
export const scanBus = createScanBus();
