import { useState, type FormEvent } from 'react';
import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconKeyboard } from '@tabler/icons-react';
import { ScanInput } from './scan-input.tsx';

export interface BadgeEntryProps {
  /** Prefix of the test ids (`<prefix>-scan`, `-badge`, `-pin`, `-typed-submit`, `-type-badge`). */
  testIdPrefix: string;
  /** The typed form's submit button (Start, Punch). */
  submitLabel: string;
  /** A typed badge and its PIN (at least 4 digits); a scanned badge comes through the page's scans. */
  onTyped(badge: string, pin: string): void;
}

/**
 * How a worker names themselves on a shared device (kiosk, time clock): the badge scanned into the
 * field (or anywhere on the page), or typed with the PIN, which a typed badge always needs.
 */
export function BadgeEntry({ testIdPrefix, submitLabel, onTyped }: BadgeEntryProps) {
  const { t } = useTranslation();
  const [typing, setTyping] = useState(false);
  const [badge, setBadge] = useState('');
  const [pin, setPin] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const b = badge.trim();
    if (!b || pin.length < 4) return;
    onTyped(b, pin);
    setBadge('');
    setPin('');
  };
  if (!typing) {
    return (
      <Stack w="100%" gap="xs">
        <ScanInput label={t('Badge')} size="md" data-testid={`${testIdPrefix}-scan`} />
        <Button
          variant="subtle"
          size="md"
          leftSection={<IconKeyboard size={20} />}
          onClick={() => setTyping(true)}
          data-testid={`${testIdPrefix}-type-badge`}
        >
          {t('Type badge and PIN')}
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} style={{ width: '100%' }}>
      <Stack gap="xs">
        <TextInput
          label={t('Badge')}
          value={badge}
          onChange={(e) => setBadge(e.currentTarget.value)}
          autoComplete="off"
          size="md"
          data-testid={`${testIdPrefix}-badge`}
        />
        <PasswordInput
          label={t('PIN')}
          value={pin}
          onChange={(e) => setPin(e.currentTarget.value.replace(/\D/g, '').slice(0, 8))}
          inputMode="numeric"
          autoComplete="off"
          size="md"
          data-testid={`${testIdPrefix}-pin`}
        />
        <Group>
          <Button type="submit" size="md" disabled={!badge.trim() || pin.length < 4} data-testid={`${testIdPrefix}-typed-submit`}>
            {submitLabel}
          </Button>
          <Button variant="default" size="md" onClick={() => setTyping(false)}>
            {t('Cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
