import { useEffect } from 'react';
import { useBrandHead } from '../lib/brand-assets.ts';
import { brandBasics } from '../lib/brand-colors.ts';
import { useSiteStore } from '../lib/site-store.ts';
import { LandingPage } from '../features/landing/components/landing-page.tsx';
import { ScreenSaver } from './screen-saver.tsx';
import { Watermark } from './watermark.tsx';
import '../components/plain-colors.css';
import './login-shell.css';

/**
 * The login page on its own, as a device that is not logged in first loads it: the shell's header,
 * the page, the icon credit and the screen saver, in plain elements (no Mantine, no router). The
 * whole app (app/whole-app.tsx) loads after the login, or as soon as the page needs more (main.tsx).
 */
export function LoginShell({ onLoggedIn, onLoggingIn }: { onLoggedIn: (to: string) => unknown; onLoggingIn: () => void }) {
  const brand = useSiteStore((s) => s.brand);
  useBrandHead();
  const { headBg, headFg } = brandBasics(brand);
  useEffect(() => {
    document.title = brand.title ?? 'Floorhand';
  }, [brand.title]);
  return (
    <>
      <header className="fh-login-header" style={{ background: headBg, color: headFg }}>
        <h1 data-testid="page-title">{brand.siteName ?? 'Floorhand'}</h1>
      </header>
      <main className="fh-login-main">
        <LandingPage onLoggedIn={onLoggedIn} onLoggingIn={onLoggingIn} />
        <Watermark />
      </main>
      <ScreenSaver />
    </>
  );
}
