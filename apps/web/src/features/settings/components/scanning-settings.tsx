import { useState } from 'react';
import { Card, Chip, Group, Image, Input, NumberInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BARCODE_FORMATS_SUPPORTED, MIN_TOUCH_TARGET_PX, type BarcodeFormat } from '@floorhand/contract/constants';
import { useAuthStore } from '../../../lib/auth-store.ts';
import type { MachineSettings } from '../../../lib/machine-store.ts';
import { CameraSelect } from '../../../components/scanning/camera-select.tsx';
import { mediaPicUrl } from '../../../lib/brand-assets.ts';
import { PhotoCapture } from '../../../components/scanning/photo-capture.tsx';
import { useProtectedPicture } from '../../../lib/protected-picture.ts';
import { TestScanPanel } from './test-scan-panel.tsx';
import { tk } from '@floorhand/contract/i18n';
import { tText } from '../../../lib/translate-text.ts';

export type ScanningSettingsValue = Pick<MachineSettings, 'barcode' | 'timeclockCam' | 'photoCam'>;

export const FPS_RANGE = { min: 1, max: 30 } as const;
export const TIMEOUT_SECS_RANGE = { min: 5, max: 600 } as const;

const inRange = (n: number, r: { min: number; max: number }) => Number.isInteger(n) && n >= r.min && n <= r.max;

/** Why the barcode settings cannot be saved, per field (English; the page translates). */
export function scanningSettingsErrors({ barcode }: ScanningSettingsValue): {
  formats?: string;
  fps?: string;
  timeoutSecs?: string;
  wedgePrefix?: string;
} {
  return {
    // Printable characters a keyboard sends, without spaces: a scanner's prefix, never a word.
    ...(/^[\x21-\x7e]{0,4}$/.test(barcode.wedgePrefix ?? '') ? {} : { wedgePrefix: tk('Up to 4 characters, printable, without spaces') }),
    ...(barcode.formats.length === 0 ? { formats: tk('Choose at least one format') } : {}),
    ...(inRange(barcode.fps, FPS_RANGE) ? {} : { fps: tk(`Enter ${FPS_RANGE.min} to ${FPS_RANGE.max} frames per second`) }),
    ...(inRange(barcode.timeoutSecs, TIMEOUT_SECS_RANGE)
      ? {}
      : { timeoutSecs: tk(`Enter ${TIMEOUT_SECS_RANGE.min} to ${TIMEOUT_SECS_RANGE.max} seconds`) }),
  };
}

const toNumber = (v: number | string) => (typeof v === 'number' ? v : Number.NaN);
const shown = (n: number) => (Number.isNaN(n) ? '' : n);

/**
 * The scanning part of App Settings: barcode camera and options, time-clock and photo cameras,
 * and a test-scan panel that scans with the choices before they are saved.
 */
export function ScanningSettings({ value, onChange }: { value: ScanningSettingsValue; onChange: (value: ScanningSettingsValue) => void }) {
  const { t } = useTranslation();
  const orgId = useAuthStore((s) => s.org?.id);
  const [photo, setPhoto] = useState<string | null>(null);
  // A photo needs the token (issue 10): fetched with it, shown from a blob: URL.
  const photoSrc = useProtectedPicture(photo && orgId ? mediaPicUrl(orgId, photo) : null);
  const { barcode } = value;
  const errors = scanningSettingsErrors(value);
  const setBarcode = (patch: Partial<ScanningSettingsValue['barcode']>) => onChange({ ...value, barcode: { ...barcode, ...patch } });

  return (
    <>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h3">
            {t('Barcode scanning')}
          </Title>
          <CameraSelect label={t('Barcode camera')} value={barcode.cam} onChange={(cam) => setBarcode({ cam })} testId="barcode-cam" />
          {/* Chips, not a multi-select: its tiny remove buttons are no target for a gloved thumb. */}
          <Input.Wrapper
            label={t('Formats')}
            description={t('Fewer formats read faster and misread less. UPC_EAN_EXTENSION is read only with its EAN or UPC code.')}
            error={errors.formats && tText(errors.formats)}
          >
            <Chip.Group multiple value={barcode.formats} onChange={(f) => setBarcode({ formats: f as BarcodeFormat[] })}>
              <Group gap={6} mt={6} data-testid="barcode-formats">
                {BARCODE_FORMATS_SUPPORTED.map((f) => (
                  <Chip key={f} value={f} size="sm" styles={{ label: { height: MIN_TOUCH_TARGET_PX } }}>
                    {f}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </Input.Wrapper>
          <Group wrap="wrap" align="flex-start">
            <NumberInput
              label={t('Frames per second')}
              min={FPS_RANGE.min}
              max={FPS_RANGE.max}
              value={shown(barcode.fps)}
              onChange={(v) => setBarcode({ fps: toNumber(v) })}
              error={errors.fps && tText(errors.fps)}
              size="md"
              style={{ flex: '1 1 160px' }}
              data-testid="barcode-fps"
            />
            <NumberInput
              label={t('Scan timeout (seconds)')}
              min={TIMEOUT_SECS_RANGE.min}
              max={TIMEOUT_SECS_RANGE.max}
              value={shown(barcode.timeoutSecs)}
              onChange={(v) => setBarcode({ timeoutSecs: toNumber(v) })}
              error={errors.timeoutSecs && tText(errors.timeoutSecs)}
              size="md"
              style={{ flex: '1 1 160px' }}
              data-testid="barcode-timeout"
            />
          </Group>
          <TextInput
            label={t('Scanner prefix')}
            description={t(
              'Characters the scanner is set to send before each code (a DataWedge or Honeywell prefix). Keys that begin with them are a scan however slowly they come. Empty: scans are told by their speed.',
            )}
            value={barcode.wedgePrefix}
            onChange={(e) => setBarcode({ wedgePrefix: e.currentTarget.value })}
            error={errors.wedgePrefix && tText(errors.wedgePrefix)}
            maxLength={4}
            autoComplete="off"
            spellCheck={false}
            size="md"
            data-testid="barcode-prefix"
          />
          <Group wrap="wrap">
            <Switch
              size="md"
              label={t('Beep on a read')}
              checked={barcode.beep}
              onChange={(e) => setBarcode({ beep: e.currentTarget.checked })}
              data-testid="barcode-beep"
            />
            <Switch
              size="md"
              label={t('Vibrate on a read')}
              checked={barcode.vibrate}
              onChange={(e) => setBarcode({ vibrate: e.currentTarget.checked })}
              data-testid="barcode-vibrate"
            />
          </Group>
        </Stack>
      </Card>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h3">
            {t('Test scan')}
          </Title>
          <TestScanPanel settings={barcode} />
        </Stack>
      </Card>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h3">
            {t('Other cameras')}
          </Title>
          <CameraSelect
            label={t('Time-clock camera')}
            description={t('Takes the photo stored with each punch')}
            value={value.timeclockCam}
            onChange={(timeclockCam) => onChange({ ...value, timeclockCam })}
            testId="timeclock-cam"
          />
          <CameraSelect
            label={t('Photo camera')}
            description={t('Takes photos of stock and damage')}
            value={value.photoCam}
            onChange={(photoCam) => onChange({ ...value, photoCam })}
            testId="photo-cam"
          />
          <Group>
            <PhotoCapture cam={value.photoCam} label={t('Test photo')} onCaptured={setPhoto} testId="test-photo" />
            {photoSrc && <Image src={photoSrc} h={90} w="auto" fit="contain" alt={t('Test photo')} data-testid="test-photo-result" />}
          </Group>
          <Text size="xs" c="dimmed">
            {t('A test photo is uploaded like any other photo.')}
          </Text>
        </Stack>
      </Card>
    </>
  );
}
