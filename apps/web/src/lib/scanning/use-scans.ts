import { useEffect, useRef } from 'react';
import { scanBus, type ScanHandler, type SubscribeOptions } from './scan-bus.ts';

/**
 * Hands this screen every scan (camera, file, wedge, scan input) while it is mounted. The newest
 * mounted screen gets the scans; the handler may change on every render without resubscribing.
 */
export function useScans(handler: ScanHandler, { allowRepeats = false }: SubscribeOptions = {}): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => scanBus.subscribe((scan) => latest.current(scan), { allowRepeats }), [allowRepeats]);
}
