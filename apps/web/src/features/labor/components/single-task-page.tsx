import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconPin, IconPinnedOff, IconPlayerPlay } from '@tabler/icons-react';
import { formatClock, mayReadLaborReports, roundSeconds, type Task } from '@floorhand/contract/labor';
import { showHours } from '../utils/hours.ts';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { isUnreachable } from '@floorhand/contract/offline';
import { ApiError } from '../../../lib/api.ts';
import { useConnection } from '../../../lib/offline/connection.ts';
import { isDefinite, useAttempts } from '../../../lib/attempts.ts';
import { readFeedback, refuseScan } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { getTask } from '../api/get-task.ts';
import { useRunning, useStartLabor, useStopLabor } from '../api/current-labor.ts';
import { isQueuedEntry, knownTask, rememberTask } from '../utils/queued-labor.ts';
import { QueuedStart } from './queued-start.tsx';
import { FetchedAt } from '../../../components/ui/fetched-at.tsx';
import { stoppedNotice } from '../utils/stopped-notice.ts';
import { useServerNow } from '../hooks/use-server-now.ts';
import { epochSecs } from '../utils/live-split.ts';
import { EMPTY_STOP, singleScanMeaning, type StopDraft } from '../utils/scan-meaning.ts';
import { LaborLinks } from './labor-links.tsx';
import { StopForm, type StopRequest } from './stop-form.tsx';
import { TaskLine } from './task-line.tsx';

// The reports are a view of this page for supervisors (?view=reports), a chunk of their own.
const LaborReports = lazy(() => import('./labor-reports.tsx').then((m) => ({ default: m.LaborReports })));

/** Single task labor, or the labor reports when the address asks for them (and the session may read them). */
export function SingleTaskPage() {
  const { t } = useTranslation();
  const search = useLocation({ select: (l) => l.search as Record<string, unknown> });
  const perms = useSessionStore((s) => s.perms);
  if (search.view === 'reports') {
    if (!perms || !mayReadLaborReports(perms))
      return <Alert color="red">{t('Labor reports are for administrators and time-clock administrators.')}</Alert>;
    return (
      <Suspense fallback={<Loader />}>
        <LaborReports />
      </Suspense>
    );
  }
  return <SingleTask />;
}

/**
 * Scan a task (wedge, camera or typed), Start; the running task shows its live time; Stop with the
 * quantity done and the complete flag. Starting another task stops the running one (the server
 * does it in the same transaction). Pinned tasks (session taskBtnPins) are one press away.
 */
function SingleTask() {
  const { t } = useTranslation();
  const { current, running } = useRunning();
  const start = useStartLabor();
  const stop = useStopLabor();
  const attempts = useAttempts();
  const pins = useSessionStore((s) => s.taskBtnPins);
  const [scanned, setScanned] = useState<Task | null>(null);
  // A task scanned while the server cannot be reached: started by its code, checked at the replay.
  const [unchecked, setUnchecked] = useState<string | null>(null);
  const [unknown, setUnknown] = useState<string | null>(null);
  const [lookingUp, setLookingUp] = useState(false);
  const settings = current.data?.settings;
  const now = useServerNow(current.data?.serverTime);
  const entry = running[0];
  // The running task's stop form; a form of an entry that is no longer running reads as empty.
  const [stopForm, setStopForm] = useState<StopDraft & { entryId: string }>({ ...EMPTY_STOP, entryId: '' });
  const stopDraft = entry && stopForm.entryId === entry.id ? stopForm : EMPTY_STOP;
  const startRef = useRef<HTMLButtonElement>(null);
  // A scanned task's Start takes the focus: Enter starts it, keyboard alone.
  useEffect(() => {
    if (scanned || unchecked) startRef.current?.focus();
  }, [scanned, unchecked]);

  const open = async (code: string) => {
    const taskCode = code.trim();
    if (!taskCode) return;
    setUnknown(null);
    setUnchecked(null);
    // Offline (issue 27): a task read before shows as it was; another is started by its code alone.
    const offline = () => {
      const seen = knownTask(taskCode);
      setScanned(seen ? ({ ...seen, _id: '', _rev: 0, workCentre: null, plannedMinutes: null, active: true } as Task) : null);
      if (!seen) setUnchecked(taskCode);
    };
    if (useConnection.getState().state !== 'online') return offline();
    setLookingUp(true);
    try {
      const res = await getTask(taskCode);
      if (res.task) rememberTask(res.task);
      setScanned(res.task ?? null);
    } catch (e) {
      setScanned(null);
      if (e instanceof ApiError && e.status === 404) setUnknown(taskCode);
      else if (e instanceof ApiError && isUnreachable(e.status)) offline();
    } finally {
      setLookingUp(false);
    }
  };
  useScans((scan) => {
    const text = scan.text.trim();
    if (!text) return;
    const meaning = singleScanMeaning(entry ? { task: entry.taskCode, stop: stopDraft } : null);
    if (meaning.kind === 'refused') return refuseScan(meaning, text);
    readFeedback(scan);
    void open(text);
  });

  const onStart = async (taskCode: string) => {
    // The device's time goes with it: a start queued offline is booked when it was made (issue 27).
    const attempt = attempts.begin({ start: taskCode }, () => ({
      taskCode,
      mode: 'single' as const,
      deviceTime: new Date().toISOString(),
    }));
    try {
      const sent = await start.mutateAsync({
        ...attempt.body,
        idempotencyKey: attempt.key,
        label: t('Start task {{code}}', { code: taskCode }),
      });
      attempts.settle();
      setScanned(null);
      setUnchecked(null);
      if (sent.queued) return;
      const res = sent.res;
      const notice = stoppedNotice(t, res.stopped ?? [], res.settings, taskCode);
      if (notice) notifications.show({ closeButtonProps: { 'aria-label': t('Close') }, ...notice });
    } catch (e) {
      if (!(e instanceof ApiError) || isDefinite(e.status)) attempts.settle();
    }
  };

  const onStop = async (r: StopRequest) => {
    if (!entry) return;
    // A task whose start is queued has no entry id yet: its stop names the task (the server stops its running entry of it).
    const which = isQueuedEntry(entry.id) ? { taskCode: entry.taskCode } : { entryId: entry.id };
    const attempt = attempts.begin({ stop: entry.id, ...r }, () => ({
      ...which,
      complete: r.complete,
      deviceTime: new Date().toISOString(),
      ...(r.qtyDone !== undefined ? { qtyDone: r.qtyDone } : {}),
    }));
    try {
      const sent = await stop.mutateAsync({
        ...attempt.body,
        idempotencyKey: attempt.key,
        label: t('Stop task {{code}}', { code: entry.taskCode }),
      });
      attempts.settle();
      if (sent.queued) return;
      const notice = stoppedNotice(t, sent.res.stopped ?? [], settings);
      if (notice) notifications.show({ closeButtonProps: { 'aria-label': t('Close') }, ...notice });
    } catch (e) {
      if (!(e instanceof ApiError) || isDefinite(e.status)) attempts.settle();
    }
  };

  const togglePin = (code: string) =>
    useSessionStore.getState().set({ taskBtnPins: pins.includes(code) ? pins.filter((p) => p !== code) : [...pins, code] });
  const elapsed = entry ? Math.max(0, now - epochSecs(entry.countedFrom)) : 0;

  return (
    <Stack maw={640} gap="md">
      <FetchedAt at={current.dataUpdatedAt} testId="labor-fetched-at" />
      {entry ? (
        <Paper withBorder p="md" radius="md" data-testid="running-task">
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" c="dimmed">
                {t('Running')}
              </Text>
              <Text fw={700} size="xl" ff="monospace" data-testid="running-clock" aria-live="off">
                {formatClock(elapsed)}
              </Text>
            </Group>
            <TaskLine task={entry} />
            {entry.queued && <QueuedStart startedAt={entry.startedAt} />}
            {settings && (
              <Text size="sm" c="dimmed" data-testid="running-hours">
                {t('{{hours}} h when stopped now', {
                  hours: showHours(roundSeconds(elapsed, settings.roundToMinutes), settings.displayScale),
                })}
              </Text>
            )}
            {/* Keyed by the entry: a task started after it gets a fresh form, and the prompt takes the focus again. */}
            <StopForm
              key={entry.id}
              draft={stopDraft}
              onDraft={(d) => setStopForm({ ...d, entryId: entry.id })}
              onStop={(r) => void onStop(r)}
              busy={stop.isPending}
              testId="stop-form"
            />
          </Stack>
        </Paper>
      ) : (
        <Text c="dimmed" data-testid="no-running">
          {current.isLoading ? t('Loading…') : t('No task is running. Scan a task to start it.')}
        </Text>
      )}

      <ScanInput
        label={t('Task')}
        placeholder={t('Scan or type a task code, then Enter')}
        data-scan-field="task"
        data-testid="task-scan"
        autoFocus={!entry}
      />
      {lookingUp && <Loader size="sm" />}
      {unknown && (
        <Alert color="orange" data-testid="task-unknown">
          {t("There is no task '{{code}}'. Check the label and scan it again.", { code: unknown })}
        </Alert>
      )}
      {unchecked && (
        <Paper withBorder p="md" radius="md" data-testid="scanned-task" data-unchecked="true">
          <Stack gap="sm">
            <Text fw={700} ff="monospace">
              {unchecked}
            </Text>
            <Text size="sm">
              {t('Not checked: the server cannot be reached. Start it and the server checks it when the connection returns.')}
            </Text>
            {entry && <Text size="sm">{t('Starting it stops {{code}}.', { code: entry.taskCode })}</Text>}
            <Button
              size="md"
              leftSection={<IconPlayerPlay size={18} />}
              loading={start.isPending}
              onClick={() => void onStart(unchecked)}
              data-testid="start-task"
              ref={startRef}
            >
              {t('Start')}
            </Button>
          </Stack>
        </Paper>
      )}
      {scanned && (
        <Paper withBorder p="md" radius="md" data-testid="scanned-task">
          <Stack gap="sm">
            <TaskLine task={scanned} />
            {!scanned.active && <Alert color="orange">{t('This task is not active.')}</Alert>}
            {entry && <Text size="sm">{t('Starting it stops {{code}}.', { code: entry.taskCode })}</Text>}
            <Group grow>
              <Button
                variant="default"
                size="md"
                leftSection={pins.includes(scanned.taskCode) ? <IconPinnedOff size={18} /> : <IconPin size={18} />}
                onClick={() => togglePin(scanned.taskCode)}
                data-testid="pin-task"
              >
                {pins.includes(scanned.taskCode) ? t('Unpin') : t('Pin')}
              </Button>
              <Button
                size="md"
                leftSection={<IconPlayerPlay size={18} />}
                loading={start.isPending}
                disabled={!scanned.active}
                onClick={() => void onStart(scanned.taskCode)}
                data-testid="start-task"
                ref={startRef}
              >
                {t('Start')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}

      {pins.length > 0 && (
        <Stack gap={4}>
          <Title order={2} size="h5">
            {t('Pinned tasks')}
          </Title>
          <Group gap="xs" data-testid="task-pins">
            {pins.map((code) => (
              <Button key={code} variant="light" size="md" onClick={() => void open(code)} data-testid={`pin-${code}`}>
                {code}
              </Button>
            ))}
          </Group>
        </Stack>
      )}
      <LaborLinks current="single" />
    </Stack>
  );
}
