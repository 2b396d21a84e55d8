import { useEffect, useRef } from 'react';
import { SCAN_SCREEN_LEFT, scansNotRead } from './feedback.ts';
import { scanBus, type Scan, type ScanHandler, type SubscribeOptions } from './scan-bus.ts';

export type UseScansOptions = SubscribeOptions & {
  /**
   * False while the screen cannot read a scan yet (its order or sheet is still being read): scans
   * wait, in order, and reach the handler once it is true. A scan that comes as the screen opens (the
   * wedge fires as soon as the button is pressed) is neither dropped nor refused for want of data.
   * Scans still held when the screen closes are refused, saying so (never dropped unheard).
   */
  ready?: boolean;
};

/**
 * Hands this screen every scan (camera, file, wedge, scan input) while it is mounted. The newest
 * mounted screen gets the scans; the handler may change on every render without resubscribing.
 */
export function useScans(handler: ScanHandler, { allowRepeats = false, ready = true }: UseScansOptions = {}): void {
  const latest = useRef(handler);
  const held = useRef<{ ready: boolean; scans: Scan[] }>({ ready, scans: [] });
  useEffect(() => {
    latest.current = handler;
    held.current.ready = ready;
    if (!ready) return;
    // Handed over in order, each to the newest handler (one may change the screen's state for the next).
    while (held.current.scans.length > 0) {
      const scan = held.current.scans.shift()!;
      try {
        latest.current(scan);
      } catch (error) {
        console.error('Scan handler failed', error);
      }
    }
  });
  useEffect(
    () =>
      scanBus.subscribe(
        (scan) => {
          if (held.current.ready && held.current.scans.length === 0) latest.current(scan);
          else held.current.scans.push(scan);
        },
        { allowRepeats },
      ),
    [allowRepeats],
  );
  // Closed before it was ready (the worker went back while it loaded): its held scans are said unread.
  useEffect(
    () => () => {
      const left = held.current.scans.splice(0);
      scansNotRead(left, SCAN_SCREEN_LEFT);
    },
    [],
  );
}
