import { useState } from 'react';
import { Alert, Anchor, Button, Center, Checkbox, Image, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconAlertCircle, IconLogin } from '@tabler/icons-react';
import { ERR } from '@floorhand/contract/errors';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { ApiError } from '../../../lib/api.ts';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { login } from '../../../lib/session.ts';
import { usePendingRoute } from '../../../lib/session-store.ts';
import { brandLogoUrl } from '../../../lib/brand-assets.ts';
import { useSiteStore } from '../../../lib/site-store.ts';

/** The landing (login) page: account, password, "Stay logged in"; the last account is remembered. */
export function LandingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const lastAcct = useAuthStore((s) => s.lastAcct);
  const rememberedStay = useAuthStore((s) => s.stayLoggedIn);
  const brand = useSiteStore((s) => s.brand);
  const siteOrgId = useSiteStore((s) => s.orgId);
  const siteError = useSiteStore((s) => s.error);
  const pendingRequired = usePendingRoute((s) => s.loginRequired);
  const [userName, setUserName] = useState(lastAcct?.userName ?? '');
  const [password, setPassword] = useState('');
  const [stayLoggedIn, setStay] = useState(rememberedStay);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      await login({ userName: userName.trim(), password, stayLoggedIn });
      const pending = usePendingRoute.getState();
      const to = pending.path ?? '/home';
      pending.clear();
      await navigate({ href: to });
    } catch (err) {
      setPassword('');
      if (err instanceof ApiError && err.err.code === ERR.accountRestricted) {
        // The server says why: a service account, or no access to this site.
        await dialogs.info({ title: 'Account Restricted', message: t(err.err.message), type: 'warn' });
      } else if (err instanceof ApiError && (err.err.code === ERR.loginFailed || err.err.code === ERR.rateLimited)) {
        setFailure(err.err.message);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="calc(100dvh - 120px)">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={420} radius="md">
        <form onSubmit={(e) => void submit(e)}>
          <Stack>
            <Image src={brandLogoUrl(brand, siteOrgId)} h={50} w="auto" fit="contain" alt="" />
            {/* The default logo carries the name already. */}
            {brand.logo?.mediaId && (
              <Title order={2} ta="center">
                {brand.title ?? 'Floorhand'}
              </Title>
            )}
            {siteError && (
              <Alert color="red" icon={<IconAlertCircle />} title={t('This site is not set up')}>
                {siteError}
              </Alert>
            )}
            {pendingRequired && <Text c="dimmed" ta="center">{t('Please log in to continue.')}</Text>}
            {lastAcct && lastAcct.userName === userName && (
              <Text ta="center" data-testid="welcome-back">
                {t('Welcome back, {{name}}', { name: lastAcct.userFullName })}{' '}
                <Anchor component="button" type="button" size="sm" onClick={() => setUserName('')}>
                  {t('Not you?')}
                </Anchor>
              </Text>
            )}
            <TextInput
              label={t('Account')}
              name="userName"
              autoComplete="username"
              autoCapitalize="none"
              value={userName}
              onChange={(e) => setUserName(e.currentTarget.value)}
              required
              autoFocus={!userName}
            />
            <PasswordInput
              label={t('Password')}
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              required
              autoFocus={!!userName}
            />
            <Checkbox label={t('Stay logged in')} checked={stayLoggedIn} onChange={(e) => setStay(e.currentTarget.checked)} />
            {failure && (
              <Text c="red.9" size="sm" role="alert" data-testid="login-failure">
                {failure}
              </Text>
            )}
            <Button type="submit" loading={busy} leftSection={<IconLogin size={20} />} size="lg" disabled={!!siteError}>
              {t('Log in')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
