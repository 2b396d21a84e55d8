import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { ActionIcon, Badge, Box, Button, Group, Stack, Text } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { IconBolt, IconBoltOff, IconPhoto, IconX } from '@tabler/icons-react';
import { BARCODE_DEFAULTS } from '@floorhand/contract/constants';
import { useDialogStore } from '../dialogs/dialog-store.ts';
import { scanBoxSize } from '../../lib/scanning/overlay-machine.ts';
import { CLOSED_SCANNER_UI, createScannerController, type ScannerUi } from '../../lib/scanning/scanner-controller.ts';
import { useScannerStore } from '../../lib/scanning/scanner-store.ts';
import { tText } from '../../lib/translate-text.ts';

// The overlay closes on a tap; its own buttons must not count as one.
const stop = (e: MouseEvent) => e.stopPropagation();

/**
 * The global barcode scanner overlay (spec sections 2 and 4): the camera fills the screen, the
 * scan box is 85% of the smaller side. A read, a tap anywhere (but on its buttons), Escape or the
 * timeout closes it; continuous mode stays open. Reads go to scanBus for whatever screen listens.
 */
export function ScannerOverlay() {
  const { t } = useTranslation();
  const open = useScannerStore((s) => s.open);
  const continuous = useScannerStore((s) => s.continuous);
  const [ui, setUi] = useState<ScannerUi>(CLOSED_SCANNER_UI);
  const videoRef = useRef<HTMLVideoElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [controller] = useState(() =>
    createScannerController(
      () => videoRef.current,
      (patch) => setUi((u) => ({ ...u, ...patch })),
      () => fileRef.current?.click(),
    ),
  );
  const view = useViewportSize();
  const box = scanBoxSize(view.width || window.innerWidth, view.height || window.innerHeight);
  const closed = ui.state === 'closed';

  // The store is read again here, not the `open` of this render: a tap on Scan between the overlay's
  // first render and this effect (the overlay's chunk arriving right after login) would otherwise be
  // closed by the stale `false`, and the close also clears the store's request (the lost first tap).
  useEffect(() => {
    const request = useScannerStore.getState();
    if (request.open) controller.open(request);
    else controller.dispatch({ type: 'close' });
  }, [controller, open]);
  useEffect(() => () => controller.dispose(), [controller]);

  useEffect(() => {
    if (closed) return;
    // Escape is the keyboard's tap. Captured before the dialogs see it: a dialog above the overlay
    // (Camera missing) closes on the same key, and only the dialog should.
    const onKey = (e: KeyboardEvent) =>
      e.key === 'Escape' && useDialogStore.getState().open.length === 0 && controller.dispatch({ type: 'click' });
    const input = fileRef.current;
    const onCancel = () => controller.resumeTimer();
    const onVisibility = () => (document.hidden ? controller.pause() : controller.resume());
    window.addEventListener('keydown', onKey, { capture: true });
    input?.addEventListener('cancel', onCancel);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('keydown', onKey, { capture: true });
      input?.removeEventListener('cancel', onCancel);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [closed, controller]);

  const starting = ui.state === 'open' && !ui.message;
  return (
    <Box
      role="dialog"
      aria-modal
      aria-label={t('Barcode scanner')}
      data-testid="scanner-overlay"
      data-state={ui.state}
      onClick={() => controller.dispatch({ type: 'click' })}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: BARCODE_DEFAULTS.overlayZIndex,
        background: '#000',
        color: '#fff',
        display: closed ? 'none' : 'block',
        userSelect: 'none',
      }}
    >
      <video
        ref={videoRef}
        muted
        playsInline
        autoPlay
        style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' }}
      />
      <Box
        data-testid="scan-box"
        style={{
          position: 'absolute',
          left: '50%',
          top: '50%',
          width: box,
          height: box,
          transform: 'translate(-50%, -50%)',
          // Teal shows on the dark shade and on a white label alike.
          border: '4px solid var(--mantine-color-teal-4)',
          borderRadius: 12,
          boxShadow: '0 0 0 100vmax rgba(0, 0, 0, 0.45)',
          pointerEvents: 'none',
        }}
      />
      <Group
        pos="absolute"
        top={0}
        left={0}
        right={0}
        px="sm"
        py={6}
        justify="space-between"
        wrap="nowrap"
        style={{ background: 'rgba(0, 0, 0, 0.55)' }}
      >
        <Stack gap={0}>
          <Text fw={700}>{t('Scan a barcode')}</Text>
          <Text size="xs" c="gray.4">
            {t('Tap anywhere to close')}
          </Text>
        </Stack>
        <ActionIcon
          variant="subtle"
          color="gray.0"
          size={44}
          aria-label={t('Close scanner')}
          data-testid="scanner-close"
          onClick={(e) => {
            stop(e);
            controller.dispatch({ type: 'click' });
          }}
        >
          <IconX size={28} />
        </ActionIcon>
      </Group>
      {(ui.message || starting || ui.busy) && (
        <Box
          pos="absolute"
          left="50%"
          top="50%"
          maw={Math.max(box - 24, 260)}
          p="md"
          style={{ transform: 'translate(-50%, -50%)', background: 'rgba(0, 0, 0, 0.75)', borderRadius: 8, textAlign: 'center' }}
        >
          <Text data-testid="scanner-message">
            {ui.busy ? t('Reading the image…') : ui.message ? tText(ui.message) : t('Starting the camera…')}
          </Text>
        </Box>
      )}
      <Group pos="absolute" bottom={0} left={0} right={0} p="sm" justify="center" gap="sm" style={{ background: 'rgba(0, 0, 0, 0.55)' }}>
        {ui.torch !== 'none' && (
          <Button
            size="md"
            variant={ui.torch === 'on' ? 'white' : 'default'}
            leftSection={ui.torch === 'on' ? <IconBoltOff size={20} /> : <IconBolt size={20} />}
            onClick={(e) => {
              stop(e);
              void controller.toggleTorch(ui.torch !== 'on');
            }}
            data-testid="scanner-torch"
          >
            {ui.torch === 'on' ? t('Light off') : t('Light on')}
          </Button>
        )}
        <Button
          size="md"
          variant="default"
          leftSection={<IconPhoto size={20} />}
          onClick={(e) => {
            stop(e);
            controller.pauseTimer();
            fileRef.current?.click();
          }}
          data-testid="scanner-file"
        >
          {t('Image file')}
        </Button>
        {continuous && (
          <Badge size="lg" color="teal" variant="filled" data-testid="scanner-reads">
            {t('Reads: {{count}}', { count: ui.reads })}
          </Badge>
        )}
      </Group>
      <input
        ref={fileRef}
        type="file"
        accept="image/*"
        hidden
        data-testid="scanner-file-input"
        onClick={stop}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (file) void controller.scanFile(file);
          else controller.resumeTimer();
        }}
      />
    </Box>
  );
}
