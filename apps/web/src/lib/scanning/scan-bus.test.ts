import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { createScanBus, SCAN_QUEUE_LIMIT, SCAN_UNREAD_MS, SCAN_REPEAT_WINDOW_MS, type Scan, type ScanSource } from './scan-bus.ts';

function setup(queueLimit?: number) {
  let t = 0;
  const bus = createScanBus({ now: () => t, queueLimit });
  return { bus, advance: (ms: number) => (t += ms) };
}
const scan = (text: string, source: ScanSource = 'wedge'): Scan => ({ text, format: 'UNKNOWN', source });
/** Queued scans reach a new subscriber in a microtask. */
const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve));
const texts = (handler: ReturnType<typeof vi.fn>) => handler.mock.calls.map(([s]) => (s as Scan).text);

describe('scan bus', () => {
  it('delivers to the topmost subscriber only, and to the previous one after it leaves', () => {
    const { bus } = setup();
    const page = vi.fn();
    const dialog = vi.fn();
    bus.subscribe(page);
    const leave = bus.subscribe(dialog);
    bus.publish(scan('A1'));
    leave();
    bus.publish(scan('B2'));
    expect(texts(dialog)).toEqual(['A1']);
    expect(texts(page)).toEqual(['B2']);
  });

  it('removes a subscriber that is not on top without disturbing the top one', () => {
    const { bus } = setup();
    const bottom = vi.fn();
    const top = vi.fn();
    const leaveBottom = bus.subscribe(bottom);
    bus.subscribe(top);
    leaveBottom();
    leaveBottom();
    bus.publish(scan('A1'));
    expect(texts(top)).toEqual(['A1']);
    expect(bottom).not.toHaveBeenCalled();
  });

  it('passes the event unchanged: text, format and source', () => {
    const { bus } = setup();
    const handler = vi.fn();
    bus.subscribe(handler);
    bus.publish({ text: 'LOC-7', format: 'CODE_128', source: 'camera' });
    expect(handler).toHaveBeenCalledWith({ text: 'LOC-7', format: 'CODE_128', source: 'camera' });
  });

  it('suppresses the same text from the same source within a window that every sighting restarts', () => {
    const { bus, advance } = setup();
    const handler = vi.fn();
    bus.subscribe(handler);
    bus.publish(scan('A1'));
    advance(SCAN_REPEAT_WINDOW_MS);
    bus.publish(scan('A1'));
    advance(SCAN_REPEAT_WINDOW_MS);
    bus.publish(scan('A1'));
    expect(texts(handler)).toEqual(['A1']);
  });

  it('delivers again once the code has been away for longer than the window', () => {
    const { bus, advance } = setup();
    const handler = vi.fn();
    bus.subscribe(handler);
    bus.publish(scan('A1', 'camera'));
    advance(SCAN_REPEAT_WINDOW_MS + 1);
    bus.publish(scan('A1', 'camera'));
    expect(texts(handler)).toEqual(['A1', 'A1']);
  });

  it('treats a different source or a different text as a new scan', () => {
    const { bus } = setup();
    const handler = vi.fn();
    bus.subscribe(handler);
    bus.publish(scan('A1', 'camera'));
    bus.publish(scan('A1', 'wedge'));
    bus.publish(scan('B2', 'camera'));
    bus.publish(scan('A1', 'camera'));
    expect(texts(handler)).toEqual(['A1', 'A1', 'B2']);
  });

  it('delivers repeats to a counting screen, except camera frames', () => {
    const { bus, advance } = setup();
    const counter = vi.fn();
    bus.subscribe(counter, { allowRepeats: true });
    for (const source of ['wedge', 'input', 'file', 'camera'] as const) {
      bus.publish(scan('SKU-1', source));
      advance(100);
      bus.publish(scan('SKU-1', source));
    }
    expect(counter.mock.calls.map(([s]) => (s as Scan).source)).toEqual(['wedge', 'wedge', 'input', 'input', 'file', 'file', 'camera']);
  });

  it('keeps scans published while nobody listens and hands them to the next subscriber in order', async () => {
    const { bus } = setup();
    bus.publish(scan('A1'));
    bus.publish(scan('B2'));
    expect(bus.pendingCount()).toBe(2);
    const handler = vi.fn();
    bus.subscribe(handler);
    expect(handler).not.toHaveBeenCalled();
    await settle();
    expect(texts(handler)).toEqual(['A1', 'B2']);
    expect(bus.pendingCount()).toBe(0);
  });

  it('hands queued scans to the surviving instance of a mount, unmount, mount (React StrictMode)', async () => {
    const { bus } = setup();
    bus.publish(scan('A1'));
    const first = vi.fn();
    const second = vi.fn();
    bus.subscribe(first)();
    bus.subscribe(second);
    await settle();
    expect(first).not.toHaveBeenCalled();
    expect(texts(second)).toEqual(['A1']);
  });

  it('applies the repeat rule of the screen that receives queued scans', async () => {
    const { bus, advance } = setup();
    bus.publish(scan('SKU-1'));
    advance(10);
    bus.publish(scan('SKU-1'));
    const counter = vi.fn();
    bus.subscribe(counter, { allowRepeats: true });
    await settle();
    expect(texts(counter)).toEqual(['SKU-1', 'SKU-1']);
  });

  it('queues again after the last subscriber leaves', async () => {
    const { bus } = setup();
    const first = vi.fn();
    bus.subscribe(first)();
    bus.publish(scan('A1'));
    expect(first).not.toHaveBeenCalled();
    const second = vi.fn();
    bus.subscribe(second);
    await settle();
    expect(texts(second)).toEqual(['A1']);
  });

  it('bounds the queue by dropping the oldest', async () => {
    const { bus } = setup(3);
    for (const t of ['A', 'B', 'C', 'D']) bus.publish(scan(t));
    const handler = vi.fn();
    bus.subscribe(handler);
    await settle();
    expect(texts(handler)).toEqual(['B', 'C', 'D']);
    expect(SCAN_QUEUE_LIMIT).toBeGreaterThanOrEqual(50);
  });

  it('leaves the rest of the queue for the next screen when a screen leaves on its first scan', async () => {
    const { bus } = setup();
    bus.publish(scan('X'));
    bus.publish(scan('Y'));
    const leaver = vi.fn(() => leave());
    const leave = bus.subscribe(leaver);
    await settle();
    expect(texts(leaver)).toEqual(['X']);
    expect(bus.pendingCount()).toBe(1);
    const next = vi.fn();
    bus.subscribe(next);
    await settle();
    expect(texts(next)).toEqual(['Y']);
  });

  it('hands later scans to the screen below once the top one leaves during delivery', () => {
    const { bus } = setup();
    const base = vi.fn();
    bus.subscribe(base);
    const once = vi.fn(() => leave());
    const leave = bus.subscribe(once);
    bus.publish(scan('Z'));
    bus.publish(scan('W'));
    expect(texts(once)).toEqual(['Z']);
    expect(texts(base)).toEqual(['W']);
  });

  it('keeps delivering after a handler throws', () => {
    const onHandlerError = vi.fn();
    const bus = createScanBus({ now: () => 0, onHandlerError });
    const handler = vi.fn().mockImplementationOnce(() => {
      throw new Error('boom');
    });
    bus.subscribe(handler);
    bus.publish(scan('A'));
    bus.publish(scan('B'));
    expect(texts(handler)).toEqual(['A', 'B']);
    expect(onHandlerError).toHaveBeenCalledTimes(1);
  });

  it('never drops or doubles distinct scans, whatever the subscribe, leave and publish order', async () => {
    const op = fc.oneof(
      fc.constant({ kind: 'sub' as const }),
      fc.constant({ kind: 'leave' as const }),
      fc.constant({ kind: 'pub' as const }),
      fc.constant({ kind: 'settle' as const }),
      fc.integer({ min: 0, max: 3000 }).map((ms) => ({ kind: 'wait' as const, ms })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const { bus, advance } = setup(1000);
        const received: string[] = [];
        const leaves: Array<() => void> = [];
        let n = 0;
        for (const o of ops) {
          if (o.kind === 'sub') leaves.push(bus.subscribe((s) => received.push(s.text)));
          else if (o.kind === 'leave') leaves.pop()?.();
          else if (o.kind === 'pub') bus.publish(scan(`S${n++}`));
          else if (o.kind === 'settle') await settle();
          else advance(o.ms);
        }
        bus.subscribe((s) => received.push(s.text));
        await settle();
        expect(received).toEqual(Array.from({ length: n }, (_, i) => `S${i}`));
      }),
    );
  });
});

describe('the interceptor', () => {
  it('sees each scan first: what it takes no screen gets, what it hands back reaches the screen once', () => {
    const bus = createScanBus({ now: () => 0 });
    const screen = vi.fn();
    bus.subscribe(screen);
    const seen: string[] = [];
    bus.setInterceptor((scan) => {
      seen.push(scan.text);
      if (scan.text.startsWith('B-')) return true;
      return false;
    });
    bus.publish({ text: 'B-ANNA', format: 'UNKNOWN', source: 'wedge' });
    bus.publish({ text: 'S0001', format: 'UNKNOWN', source: 'wedge' });
    expect(seen).toEqual(['B-ANNA', 'S0001']);
    expect(screen.mock.calls.map(([s]) => (s as { text: string }).text)).toEqual(['S0001']);
    bus.toScreens({ text: 'B-LOC', format: 'UNKNOWN', source: 'wedge' });
    expect(screen).toHaveBeenCalledTimes(2);
    bus.setInterceptor(null);
    bus.publish({ text: 'B-BEN', format: 'UNKNOWN', source: 'wedge' });
    expect(screen).toHaveBeenCalledTimes(3);
  });
});

describe('forgetRepeats', () => {
  it('makes the next scan of the same code no repeat', () => {
    const bus = createScanBus({ now: () => 0 });
    const screen = vi.fn();
    bus.subscribe(screen);
    const scan = { text: 'S1', format: 'UNKNOWN', source: 'wedge' } as const;
    bus.publish(scan);
    bus.publish(scan);
    expect(screen).toHaveBeenCalledTimes(1);
    bus.forgetRepeats();
    bus.publish(scan);
    expect(screen).toHaveBeenCalledTimes(2);
  });

  it('says scans no screen took within the unread time are unread, and keeps the younger ones for the next screen', async () => {
    vi.useFakeTimers();
    try {
      const { bus, advance } = setup();
      const unread = vi.fn();
      bus.setUnread(unread);
      bus.publish(scan('ADMIN1'));
      advance(3000);
      vi.advanceTimersByTime(3000);
      bus.publish(scan('ADMIN2'));
      expect(unread).not.toHaveBeenCalled();
      advance(SCAN_UNREAD_MS - 3000);
      vi.advanceTimersByTime(SCAN_UNREAD_MS - 3000);
      expect(unread.mock.calls.map(([scans]) => (scans as Scan[]).map((s) => s.text))).toEqual([['ADMIN1']]);
      expect(bus.pendingCount()).toBe(1);
      // A screen opening in time gets the younger one.
      const screen = vi.fn();
      bus.subscribe(screen);
      await settle();
      expect(texts(screen)).toEqual(['ADMIN2']);
      advance(SCAN_UNREAD_MS);
      vi.advanceTimersByTime(SCAN_UNREAD_MS);
      expect(unread).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps waiting scans without an unread handler (the default), and a scan a screen takes is never unread', () => {
    vi.useFakeTimers();
    try {
      const { bus, advance } = setup();
      const unread = vi.fn();
      bus.subscribe(vi.fn());
      bus.setUnread(unread);
      bus.publish(scan('TAKEN'));
      advance(SCAN_UNREAD_MS * 2);
      vi.advanceTimersByTime(SCAN_UNREAD_MS * 2);
      expect(unread).not.toHaveBeenCalled();
      const other = setup();
      other.bus.publish(scan('KEPT'));
      other.advance(SCAN_UNREAD_MS * 2);
      vi.advanceTimersByTime(SCAN_UNREAD_MS * 2);
      expect(other.bus.pendingCount()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
