import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Anchor, Box, Button, Collapse, Group, Modal, ScrollArea, Stack, Text, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import {
  IconAlertOctagon,
  IconAlertTriangle,
  IconCameraOff,
  IconCircleCheck,
  IconCircleX,
  IconHelpCircle,
  IconPhoto,
  IconInfoCircle,
  IconLogout,
  IconTrash,
} from '@tabler/icons-react';
import { DIALOG_OK_FOCUS_DELAY_MS, LOGGED_OUT_DIALOG_SIZE, SIMPLE_DIALOG } from '@floorhand/contract/constants';
import type { ServerErr } from '@floorhand/contract/errors';
import { refuseScan } from '../../lib/scanning/feedback.ts';
import { useScans } from '../../lib/scanning/use-scans.ts';
import { tk } from '@floorhand/contract/i18n';
import { tText } from '../../lib/translate-text.ts';
import { startAutoClose } from './auto-close.ts';
import { useDialogStore, type ConfirmResult, type ConfirmType, type DialogSpec, type OpenDialog } from './dialog-store.ts';

const TYPE_LOOK: Record<ConfirmType, { color: string; icon: ReactNode }> = {
  info: { color: 'blue', icon: <IconInfoCircle /> },
  warn: { color: 'yellow', icon: <IconAlertTriangle /> },
  question: { color: 'indigo', icon: <IconHelpCircle /> },
  success: { color: 'green', icon: <IconCircleCheck /> },
  failure: { color: 'red', icon: <IconCircleX /> },
  error: { color: 'red', icon: <IconAlertOctagon /> },
};

function DialogTitle({ type, icon, children }: { type: ConfirmType; icon?: ReactNode; children: ReactNode }) {
  const look = TYPE_LOOK[type];
  return (
    <Group gap="sm" wrap="nowrap">
      <ThemeIcon color={look.color} variant="light" size="lg" radius="xl">
        {icon ?? look.icon}
      </ThemeIcon>
      <Text fw={700} size="lg">
        {children}
      </Text>
    </Group>
  );
}

/** Focuses a button after the spec's OK focus delay, once the modal's own focus trap has settled. */
function useDelayedFocus<T extends HTMLElement>(enabled = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!enabled) return;
    const t = setTimeout(() => ref.current?.focus(), DIALOG_OK_FOCUS_DELAY_MS);
    return () => clearTimeout(t);
  }, [enabled]);
  return ref;
}

/**
 * A text given to a dialog, in the screen's language: callers pass texts marked with tk() (a guard's
 * refusal, a route's title) or already translated ones, which no key matches and which stay as they are.
 */
const shown = (node: ReactNode): ReactNode => (typeof node === 'string' ? tText(node) : node);

function Body({ children }: { children: ReactNode }) {
  return (
    <ScrollArea.Autosize mah={SIMPLE_DIALOG.maxHeight} type="auto">
      <Box style={{ whiteSpace: 'pre-wrap' }}>{children}</Box>
    </ScrollArea.Autosize>
  );
}

interface ViewProps<S extends DialogSpec> {
  spec: S;
  done(result: ConfirmResult): void;
}

/** The OK that closes a message: focused once the dialog has opened, so Enter closes it. */
function OkButton({ done }: { done(result: ConfirmResult): void }) {
  const { t } = useTranslation();
  const ok = useDelayedFocus<HTMLButtonElement>();
  return (
    <Button ref={ok} onClick={() => done('ok')} data-testid="dialog-ok">
      {t('OK')}
    </Button>
  );
}

function InfoView({ spec, done }: ViewProps<Extract<DialogSpec, { kind: 'info' }>>) {
  return (
    <Stack>
      {spec.caption && (
        <Text c="dimmed" size="sm">
          {shown(spec.caption)}
        </Text>
      )}
      <Body>{shown(spec.message)}</Body>
      <Group justify="flex-end">
        <OkButton done={done} />
      </Group>
    </Stack>
  );
}

function ConfirmView({ spec, done }: ViewProps<Extract<DialogSpec, { kind: 'confirm' }>>) {
  const refs = { neu: useRef<HTMLButtonElement>(null), neg: useRef<HTMLButtonElement>(null), pos: useRef<HTMLButtonElement>(null) };
  useEffect(() => {
    const focus = spec.focus;
    const t = focus ? setTimeout(() => refs[focus].current?.focus(), DIALOG_OK_FOCUS_DELAY_MS) : undefined;
    const auto = spec.autoCloseMs ? startAutoClose(spec.autoCloseMs, () => done('cancel')) : undefined;
    return () => {
      clearTimeout(t);
      auto?.cancel();
    };
    // The dialog's spec does not change while it is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Stack>
      <Body>{shown(spec.message)}</Body>
      <Group justify="flex-end">
        {spec.neu && (
          <Button ref={refs.neu} variant="default" onClick={() => done('neu')} data-testid="dialog-neu">
            {shown(spec.neu)}
          </Button>
        )}
        {spec.neg && (
          <Button ref={refs.neg} variant="light" color="red" onClick={() => done('neg')} data-testid="dialog-neg">
            {shown(spec.neg)}
          </Button>
        )}
        {spec.pos && (
          <Button ref={refs.pos} color={TYPE_LOOK[spec.type].color} onClick={() => done('pos')} data-testid="dialog-pos">
            {shown(spec.pos)}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function causeChain(err: ServerErr): ServerErr[] {
  const chain: ServerErr[] = [];
  for (let e = err.causedByErr; e && chain.length < 20; e = e.causedByErr) chain.push(e);
  return chain;
}

function ErrorView({ spec, done }: ViewProps<Extract<DialogSpec, { kind: 'error' }>>) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const { err } = spec;
  const chain = causeChain(err);
  return (
    <Stack gap="xs">
      {err.code !== 'ERR' && (
        <Text size="sm" c="dimmed" data-testid="error-code">
          {t('Error code: {{code}}', { code: err.code })}
        </Text>
      )}
      <Body>
        <Text data-testid="error-message">{shown(err.message || err.msg)}</Text>
      </Body>
      {err.detail && (
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
          {err.detail}
        </Text>
      )}
      {err.locId && (
        <>
          <Anchor component="button" type="button" size="xs" c="dimmed" onClick={() => setExpanded((x) => !x)} data-testid="error-locid">
            {err.locId}
          </Anchor>
          <Collapse in={expanded}>
            <Stack gap={4} pl="sm">
              {chain.length === 0 && <Text size="xs">{t('No further cause was reported.')}</Text>}
              {chain.map((c, i) => (
                <Text key={i} size="xs">
                  {c.code}: {c.message || c.msg} {c.locId ? `(${c.locId})` : ''}
                </Text>
              ))}
            </Stack>
          </Collapse>
        </>
      )}
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={() => notifications.show({ message: t('Report sent'), color: 'green' })}>
          {t('Report')}
        </Button>
        <OkButton done={done} />
      </Group>
    </Stack>
  );
}

function LoggedOutView({ done }: ViewProps<Extract<DialogSpec, { kind: 'loggedOut' }>>) {
  const { t } = useTranslation();
  return (
    <Stack justify="space-between" mih={LOGGED_OUT_DIALOG_SIZE.height - 120}>
      <Text>{t('Your session was closed automatically because it expired.')}</Text>
      <Text c="dimmed">{t("To stay logged in on this device, tick 'Stay logged in' the next time you log in.")}</Text>
      <Group justify="flex-end">
        <OkButton done={done} />
      </Group>
    </Stack>
  );
}

function CameraMissingView({ spec, done }: ViewProps<Extract<DialogSpec, { kind: 'cameraMissing' }>>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack>
      {spec.reason === 'notConfigured' ? (
        <Text>{t('No camera has been configured for this device. Please re-configure the camera in the application settings.')}</Text>
      ) : (
        <Text>
          {t(
            'The camera configured for barcode scanning cannot be accessed. Check that it is connected and powered on, that this site may use the camera, and that no browser setting blocks it.',
          )}
        </Text>
      )}
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => {
            done('neu');
            void navigate({ to: '/appSettings' });
          }}
        >
          {t('App Settings')}
        </Button>
        {spec.imageFile && (
          <Button variant="default" leftSection={<IconPhoto size={20} />} onClick={() => done('pos')} data-testid="camera-missing-file">
            {t('Image file')}
          </Button>
        )}
        <Button onClick={() => done('ok')}>{t('OK')}</Button>
      </Group>
    </Stack>
  );
}

function DeleteView({ spec, done }: ViewProps<Extract<DialogSpec, { kind: 'delete' }>>) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Text>{t('Please confirm that you want to permanently delete {{what}}', { what: spec.what })}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => done('cancel')}>
          {t('Cancel')}
        </Button>
        <Button color="red" leftSection={<IconTrash size={18} />} onClick={() => done('pos')}>
          {t('Delete')}
        </Button>
      </Group>
    </Stack>
  );
}

function titleOf(spec: DialogSpec, t: (s: string) => string): ReactNode {
  switch (spec.kind) {
    case 'info':
      return <DialogTitle type={spec.type ?? 'info'}>{shown(spec.title)}</DialogTitle>;
    case 'confirm':
      return <DialogTitle type={spec.type}>{shown(spec.title)}</DialogTitle>;
    case 'error':
      return <DialogTitle type="error">{t('Error')}</DialogTitle>;
    case 'loggedOut':
      return (
        <DialogTitle type="warn" icon={<IconLogout />}>
          {t('Logged out')}
        </DialogTitle>
      );
    case 'cameraMissing':
      return (
        <DialogTitle type="warn" icon={<IconCameraOff />}>
          {t('Camera missing')}
        </DialogTitle>
      );
    case 'delete':
      return <DialogTitle type="warn">{t('Delete')}</DialogTitle>;
  }
}

function DialogView({ d }: { d: OpenDialog }) {
  const { t } = useTranslation();
  const close = useDialogStore((s) => s.close);
  const done = (r: ConfirmResult) => close(d.id, r);
  const { spec } = d;
  const width = spec.kind === 'loggedOut' ? LOGGED_OUT_DIALOG_SIZE.width : SIMPLE_DIALOG.width;
  return (
    <Modal
      opened
      onClose={() => done('cancel')}
      title={titleOf(spec, t)}
      size={width}
      centered
      zIndex={8000}
      styles={{
        content: { maxWidth: SIMPLE_DIALOG.maxWidth, minHeight: spec.kind === 'loggedOut' ? LOGGED_OUT_DIALOG_SIZE.height : undefined },
      }}
      data-testid={`dialog-${spec.kind}`}
    >
      {spec.kind === 'info' && <InfoView spec={spec} done={done} />}
      {spec.kind === 'confirm' && <ConfirmView spec={spec} done={done} />}
      {spec.kind === 'error' && <ErrorView spec={spec} done={done} />}
      {spec.kind === 'loggedOut' && <LoggedOutView spec={spec} done={done} />}
      {spec.kind === 'cameraMissing' && <CameraMissingView spec={spec} done={done} />}
      {spec.kind === 'delete' && <DeleteView spec={spec} done={done} />}
    </Modal>
  );
}

/**
 * While a dialog asks something, it is the screen the scans go to (the newest subscriber): a scan is
 * refused, not handed to the page beneath, where it would open another record behind the question.
 */
function ScansWaitForTheDialog() {
  useScans((scan) => refuseScan({ message: tk('{{text}}: answer the question on screen first'), params: { text: scan.text } }, scan.text));
  return null;
}

export function DialogHost() {
  const open = useDialogStore((s) => s.open);
  return (
    <>
      {open.length > 0 && <ScansWaitForTheDialog />}
      {open.map((d) => (
        <DialogView key={d.id} d={d} />
      ))}
    </>
  );
}
