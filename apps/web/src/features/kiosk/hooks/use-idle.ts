import { useEffect, useRef } from 'react';

const ACTIVITY = ['pointerdown', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;
const CHECK_MS = 5000;

/** Calls `onIdle` once `timeoutMs` pass without a key, touch, click or scroll, while `active`. */
export function useIdle(active: boolean, timeoutMs: number, onIdle: () => void): void {
  const last = useRef(Date.now());
  const latest = useRef(onIdle);
  useEffect(() => {
    latest.current = onIdle;
  });
  useEffect(() => {
    if (!active) return;
    last.current = Date.now();
    const seen = () => {
      last.current = Date.now();
    };
    for (const e of ACTIVITY) window.addEventListener(e, seen, { capture: true, passive: true });
    const timer = setInterval(
      () => {
        if (Date.now() - last.current >= timeoutMs) {
          last.current = Date.now();
          latest.current();
        }
      },
      Math.min(CHECK_MS, timeoutMs),
    );
    return () => {
      for (const e of ACTIVITY) window.removeEventListener(e, seen, { capture: true });
      clearInterval(timer);
    };
  }, [active, timeoutMs]);
}
