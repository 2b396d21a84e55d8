import { useEffect, useRef, useState } from 'react';
import { Box, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BARCODE_DEFAULTS } from '@floorhand/contract/constants';
import type { CameraChoice } from '../../lib/machine-store.ts';
import { cameraConstraints, refreshCameras, SCAN_FRAME, stopStream, trackResolution, useCameraList } from '../../lib/scanning/camera.ts';
import { describeError } from '../../lib/scanning/scanner-messages.ts';
import { useScannerStore } from '../../lib/scanning/scanner-store.ts';

export type CameraSelectProps = {
  label: string;
  description?: string;
  value: CameraChoice | null;
  onChange: (value: CameraChoice | null) => void;
  /** The frame size this camera will be asked for, so the saved resolution is the one used. */
  size?: { width: number; height: number };
  testId?: string;
};

const PREVIEW = BARCODE_DEFAULTS.preview;

/** Live 120x90 preview of a camera; records the resolution the camera actually gives. */
function CameraPreview({
  cam,
  size,
  onResolution,
}: {
  cam: CameraChoice | null;
  size: { width: number; height: number };
  onResolution(resolution: string): void;
}) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const report = useRef(onResolution);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    report.current = onResolution;
  });
  const deviceId = cam?.deviceId;
  const { width, height } = size;
  useEffect(() => {
    setProblem(null);
    if (!deviceId) return;
    let stream: MediaStream | null = null;
    let cancelled = false;
    navigator.mediaDevices
      .getUserMedia(cameraConstraints({ deviceId, kind: 'videoinput', label: '' }, { width, height }))
      .then((started) => {
        if (cancelled) return stopStream(started);
        stream = started;
        if (video.current) video.current.srcObject = started;
        const resolution = trackResolution(started);
        if (resolution) report.current(resolution);
      })
      .catch((error: unknown) => !cancelled && setProblem(describeError(error)));
    return () => {
      cancelled = true;
      stopStream(stream);
    };
  }, [deviceId, width, height]);
  return (
    <Box
      w={PREVIEW.width}
      h={PREVIEW.height}
      bg="dark.7"
      style={{ borderRadius: 4, overflow: 'hidden', flex: 'none', position: 'relative' }}
      data-testid="camera-preview"
    >
      {deviceId && !problem ? (
        <video
          ref={video}
          muted
          playsInline
          autoPlay
          width={PREVIEW.width}
          height={PREVIEW.height}
          style={{ objectFit: 'cover', display: 'block' }}
        />
      ) : (
        <Text size="xs" c="gray.4" p={6} ta="center" title={problem ?? undefined}>
          {problem ? t('No picture') : t('No camera')}
        </Text>
      )}
    </Box>
  );
}

/**
 * Choice of one of this device's cameras with a live preview. The list is shared by every choice
 * on the page; before camera permission the browser hides the cameras, so a button asks for it
 * instead of a prompt on page load. Previews pause while the scanner overlay has the camera.
 */
export function CameraSelect({ label, description, value, onChange, size = SCAN_FRAME, testId }: CameraSelectProps) {
  const { t } = useTranslation();
  const { devices, needsPermission, error, loaded } = useCameraList();
  const scanning = useScannerStore((s) => s.open);
  useEffect(() => {
    if (!loaded) void refreshCameras();
  }, [loaded]);

  const options = [{ value: '', label: t('No camera') }, ...devices.map((d) => ({ value: d.deviceId, label: d.label }))];
  // A saved camera that is unplugged (or hidden until permission) stays visible as the choice.
  if (value && !devices.some((d) => d.deviceId === value.deviceId)) {
    options.push({
      value: value.deviceId,
      label: `${value.label || t('Saved camera')}${loaded && !needsPermission ? ` (${t('not found')})` : ''}`,
    });
  }
  const choose = (deviceId: string) => {
    const device = devices.find((d) => d.deviceId === deviceId);
    onChange(device ? { deviceId, kind: 'videoinput', label: device.label } : null);
  };

  return (
    <Stack gap={6}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <NativeSelect
          label={label}
          description={description}
          data={options}
          value={value?.deviceId ?? ''}
          onChange={(e) => choose(e.currentTarget.value)}
          size="md"
          data-testid={testId}
          style={{ flex: '1 1 200px' }}
        />
        <CameraPreview
          cam={scanning ? null : value}
          size={size}
          onResolution={(resolution) => value && resolution !== value.resolution && onChange({ ...value, resolution })}
        />
      </Group>
      {needsPermission && (
        <Button variant="light" size="md" w="fit-content" onClick={() => void refreshCameras(true)} data-testid="camera-allow">
          {t('Allow camera access')}
        </Button>
      )}
      {error && (
        <Text c="red" size="sm">
          {t(error)}
        </Text>
      )}
    </Stack>
  );
}
