import { useState, type ReactNode } from 'react';
import { Button, Card, Group, NumberInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { NOTIFICATION_TIMEOUT_MS } from '@floorhand/contract/constants';
import { isAdmin } from '@floorhand/contract/perms';
import { LanguageSelect } from '../../../components/ui/language-select.tsx';
import { defaultWorkstationId, useMachineStore } from '../../../lib/machine-store.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { PairDevice } from './pair-device.tsx';
import { ScanningSettings, scanningSettingsErrors } from './scanning-settings.tsx';

const WORKSTATION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,38}[A-Za-z0-9])?$/;

/**
 * The machine settings of this device, kept in machine_settings. `siteSection` follows them: the
 * site's settings for admins, composed by the router (a feature does not import another).
 */
export function AppSettingsPage({ siteSection }: { siteSection?: ReactNode }) {
  const { t } = useTranslation();
  const saved = useMachineStore();
  const perms = useSessionStore((s) => s.perms);
  // Only administrators change the workstation part (issue 10 item 6); the rest is anyone's.
  const admin = !!perms && isAdmin(perms);
  const [ws, setWs] = useState(saved.workstation);
  const [screenSaver, setScreenSaver] = useState<number | string>(saved.screenSaver);
  const [kioskTimeout, setKioskTimeout] = useState<number | string>(saved.kioskSessionTimeout);
  const [scanning, setScanning] = useState({ barcode: saved.barcode, timeclockCam: saved.timeclockCam, photoCam: saved.photoCam });
  const scanError = Object.keys(scanningSettingsErrors(scanning)).length > 0;
  const wsError = WORKSTATION_ID.test(ws.id) ? null : t('Use 1 to 40 letters, digits, - or _, starting and ending with a letter or digit');
  const ssError =
    typeof screenSaver === 'number' && screenSaver >= 0 && screenSaver <= 240 ? null : t('Enter 0 to 240 minutes (0 turns it off)');
  const ktError = typeof kioskTimeout === 'number' && kioskTimeout >= 1 && kioskTimeout <= 480 ? null : t('Enter 1 to 480 minutes');

  const save = () => {
    if (wsError || ssError || ktError || scanError) return;
    // A new id is a new workstation: the secret of the old one does not go with it.
    const workstation = admin
      ? ws.id === saved.workstation.id
        ? { ...ws, secret: saved.workstation.secret }
        : { ...ws, secret: undefined }
      : saved.workstation;
    saved.save({ workstation, screenSaver: Number(screenSaver), kioskSessionTimeout: Number(kioskTimeout), ...scanning });
    notifications.show({ message: t('Settings saved'), color: 'green', autoClose: NOTIFICATION_TIMEOUT_MS });
  };

  return (
    <Stack maw={720}>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h3">
            {t('Workstation')}
          </Title>
          {!admin && <Text size="sm">{t('Only an administrator can change the workstation settings of this device.')}</Text>}
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label={t('Workstation id')}
              description={t('Administrators authorise this id as a time clock or kiosk')}
              value={ws.id}
              readOnly={!admin}
              onChange={(e) => setWs({ ...ws, id: e.currentTarget.value.trim() })}
              error={wsError}
              data-testid="workstation-id"
              style={{ flex: 1, minWidth: 220 }}
            />
            {admin && (
              <Button variant="default" onClick={() => setWs({ ...ws, id: defaultWorkstationId() })}>
                {t('New id')}
              </Button>
            )}
          </Group>
          <Switch
            label={t('Time clock only')}
            description={t('Only timeclock accounts (and administrators) may log in here')}
            checked={ws.timeclockOnly}
            disabled={!admin}
            onChange={(e) => setWs({ ...ws, timeclockOnly: e.currentTarget.checked })}
            data-testid="workstation-timeclock-only"
          />
          <Switch
            label={t('Kiosk only')}
            description={t('Only kiosk accounts (and administrators) may log in here')}
            checked={ws.kioskOnly}
            disabled={!admin}
            onChange={(e) => setWs({ ...ws, kioskOnly: e.currentTarget.checked })}
            data-testid="workstation-kiosk-only"
          />
          <PairDevice />
        </Stack>
      </Card>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h3">
            {t('Screen')}
          </Title>
          {/* Applies and is kept at once, like My Account's: the screen changes as it is chosen. */}
          <LanguageSelect
            label={t('Language')}
            description={t(
              "Everyone who uses this device sees it in this language. Not set: each account's own choice, else the browser's.",
            )}
            unsetLabel={t('Not set')}
            value={saved.language}
            onChange={(language) => saved.save({ language })}
            data-testid="workstation-language"
          />
          <NumberInput
            label={t('Screen saver after (minutes)')}
            min={0}
            max={240}
            value={screenSaver}
            onChange={setScreenSaver}
            error={ssError}
            data-testid="screen-saver-minutes"
          />
          <NumberInput
            label={t('Kiosk session timeout (minutes)')}
            min={1}
            max={480}
            value={kioskTimeout}
            onChange={setKioskTimeout}
            error={ktError}
          />
        </Stack>
      </Card>
      <ScanningSettings value={scanning} onChange={setScanning} />
      <Text size="sm" c="dimmed">
        {t('These settings belong to this device and browser, not to your account.')}
      </Text>
      <Group>
        <Button
          leftSection={<IconDeviceFloppy size={20} />}
          onClick={save}
          disabled={!!(wsError || ssError || ktError || scanError)}
          data-testid="save-settings"
        >
          {t('Save')}
        </Button>
      </Group>
      {siteSection}
    </Stack>
  );
}
