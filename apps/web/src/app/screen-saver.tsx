import { useEffect, useState } from 'react';
import { SCREEN_SAVER_IDLE_CHECK_MS, SCREEN_SAVER_LOGO } from '@floorhand/contract/constants';
import { useMachineStore } from '../lib/machine-store.ts';
import { brandLogoUrl } from '../lib/brand-assets.ts';
import { useSiteStore } from '../lib/site-store.ts';

const RESET_EVENTS = ['mousemove', 'mousedown', 'touchstart', 'click', 'keydown'] as const;

/** Active once idle time reaches the timeout: `idleMs` and `timeoutMs` in, visibility out. */
export const screenSaverActive = (idleMs: number, timeoutMs: number): boolean => timeoutMs > 0 && idleMs >= timeoutMs;

/** Full-screen brand logo after the configured minutes without input; any input hides it. */
export function ScreenSaver() {
  const minutes = useMachineStore((s) => s.screenSaver);
  const brand = useSiteStore((s) => s.brand);
  const orgId = useSiteStore((s) => s.orgId);
  const [active, setActive] = useState(false);
  useEffect(() => {
    let lastInput = Date.now();
    const reset = () => {
      lastInput = Date.now();
      setActive(false);
    };
    for (const ev of RESET_EVENTS) window.addEventListener(ev, reset, { capture: true, passive: true });
    const timer = setInterval(() => setActive(screenSaverActive(Date.now() - lastInput, minutes * 60_000)), SCREEN_SAVER_IDLE_CHECK_MS);
    return () => {
      clearInterval(timer);
      for (const ev of RESET_EVENTS) window.removeEventListener(ev, reset, { capture: true });
    };
  }, [minutes]);
  if (!active) return null;
  // Plain elements, no Mantine: the login page shows it too, and it loads no Mantine.
  return (
    <div
      data-testid="screen-saver"
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 9000,
        background: brand.colors?.dark ?? '#1f1f1f',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 16,
      }}
    >
      <img
        src={brandLogoUrl(brand, orgId)}
        width={SCREEN_SAVER_LOGO.width}
        height={SCREEN_SAVER_LOGO.height}
        style={{ objectFit: 'contain' }}
        alt={brand.siteName ?? 'Floorhand'}
      />
      <p style={{ margin: 0, color: '#adb5bd', fontSize: 14 }}>{brand.siteName ?? 'Floorhand'}</p>
    </div>
  );
}
