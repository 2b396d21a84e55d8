import { useId, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { IconAlertCircle, IconEye, IconEyeOff, IconLogin } from '@tabler/icons-react';
import { isUnreachable } from '@floorhand/contract/offline';
import { ERR } from '@floorhand/contract/errors';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { ApiError } from '../../../lib/api.ts';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { brandBasics } from '../../../lib/brand-colors.ts';
import { usePendingRoute } from '../../../lib/session-store.ts';
import { brandLogoUrl } from '../../../lib/brand-assets.ts';
import { useSiteStore } from '../../../lib/site-store.ts';
import '../../../components/plain-colors.css';
import './landing-page.css';

/**
 * What was typed, and why the last login failed, survive the page being drawn again: the login page first shows on its own (main.tsx)
 * and again inside the whole app once that has loaded, e.g. to show a dialog.
 */
const draft: { userName?: string; stayLoggedIn?: boolean; failure?: string | null } = {};

/**
 * The landing (login) page: account, password, "Stay logged in"; the last account is remembered.
 * Plain elements and CSS, no Mantine and no router: it is the first page a device loads (about half
 * the JavaScript of a work page, bench/bundle). `onLoggingIn` starts what the next page needs while
 * the login is under way; `onLoggedIn` goes on to the page wanted next.
 */
export function LandingPage({ onLoggedIn, onLoggingIn }: { onLoggedIn: (to: string) => unknown; onLoggingIn?: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const lastAcct = useAuthStore((s) => s.lastAcct);
  const rememberedStay = useAuthStore((s) => s.stayLoggedIn);
  const brand = useSiteStore((s) => s.brand);
  const siteOrgId = useSiteStore((s) => s.orgId);
  const siteError = useSiteStore((s) => s.error);
  const pendingRequired = usePendingRoute((s) => s.loginRequired);
  const [userName, setUserNameState] = useState(draft.userName ?? lastAcct?.userName ?? '');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [stayLoggedIn, setStayState] = useState(draft.stayLoggedIn ?? rememberedStay);
  const [busy, setBusy] = useState(false);
  const [failure, setFailureState] = useState<string | null>(draft.failure ?? null);
  const setUserName = (v: string) => setUserNameState((draft.userName = v));
  const setStay = (v: boolean) => setStayState((draft.stayLoggedIn = v));
  const setFailure = (v: string | null) => setFailureState((draft.failure = v));
  const colors = brandBasics(brand);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    onLoggingIn?.();
    try {
      const { login } = await import('../../../lib/session.ts');
      await login({ userName: userName.trim(), password, stayLoggedIn });
      const pending = usePendingRoute.getState();
      const to = pending.path ?? '/home';
      pending.clear();
      draft.userName = undefined;
      await onLoggedIn(to);
    } catch (err) {
      setPassword('');
      if (err instanceof ApiError && err.err.code === ERR.accountRestricted) {
        // The server says why: a service account, or no access to this site.
        await dialogs.info({ title: t('Account Restricted'), message: t(err.err.message), type: 'warn' });
      } else if (err instanceof ApiError && (err.err.code === ERR.loginFailed || err.err.code === ERR.rateLimited)) {
        setFailure(err.err.message);
      } else if (err instanceof ApiError && isUnreachable(err.status)) {
        // Logging in is never offline (issue 27): it is the server that checks the password.
        setFailure(t('Logging in needs the server, which cannot be reached now. Try again when the network is back.'));
      }
    } finally {
      setBusy(false);
    }
  };

  const style = { '--fh-button-bg': colors.button.bg, '--fh-button-fg': colors.button.fg } as CSSProperties;
  return (
    <div className="fh-login" style={style}>
      <div className="fh-login-card">
        <form onSubmit={(e) => void submit(e)} className="fh-login-stack">
          <img className="fh-login-logo" src={brandLogoUrl(brand, siteOrgId)} height={50} alt="" />
          {/* The default logo carries the name already. */}
          {brand.logo?.mediaId && <h2 className="fh-login-title">{brand.title ?? 'Floorhand'}</h2>}
          {siteError && (
            <div className="fh-login-alert" role="alert">
              <IconAlertCircle size={20} aria-hidden />
              <div>
                <strong>{t('This site is not set up')}</strong>
                <p>{siteError}</p>
              </div>
            </div>
          )}
          {pendingRequired && <p className="fh-login-dimmed">{t('Please log in to continue.')}</p>}
          {lastAcct && lastAcct.userName === userName && (
            <p className="fh-login-center" data-testid="welcome-back">
              {t('Welcome back, {{name}}', { name: lastAcct.userFullName })}{' '}
              <button type="button" className="fh-login-link" onClick={() => setUserName('')}>
                {t('Not you?')}
              </button>
            </p>
          )}
          <div className="fh-login-field">
            <label htmlFor={`${id}-user`}>
              {t('Account')}
              <span className="fh-login-required" aria-hidden>
                *
              </span>
            </label>
            <input
              id={`${id}-user`}
              className="fh-login-input"
              name="userName"
              autoComplete="username"
              autoCapitalize="none"
              value={userName}
              onChange={(e) => setUserName(e.currentTarget.value)}
              required
              autoFocus={!userName}
            />
          </div>
          <div className="fh-login-field">
            <label htmlFor={`${id}-password`}>
              {t('Password')}
              <span className="fh-login-required" aria-hidden>
                *
              </span>
            </label>
            <div className="fh-login-input-wrap">
              <input
                id={`${id}-password`}
                className="fh-login-input"
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                required
                autoFocus={!!userName}
              />
              <button
                type="button"
                className="fh-login-toggle"
                aria-label={t('Show what is typed')}
                aria-pressed={showPassword}
                onClick={() => setShowPassword((v) => !v)}
              >
                {showPassword ? <IconEyeOff size={22} aria-hidden /> : <IconEye size={22} aria-hidden />}
              </button>
            </div>
          </div>
          <label className="fh-login-check">
            <input type="checkbox" checked={stayLoggedIn} onChange={(e) => setStay(e.currentTarget.checked)} />
            {t('Stay logged in')}
          </label>
          {failure && (
            <p className="fh-login-failure" role="alert" data-testid="login-failure">
              {failure}
            </p>
          )}
          <button
            type="submit"
            className="fh-login-submit"
            disabled={!!siteError}
            aria-busy={busy}
            onClick={(e) => busy && e.preventDefault()}
          >
            <IconLogin size={20} aria-hidden />
            {t('Log in')}
          </button>
        </form>
      </div>
    </div>
  );
}
