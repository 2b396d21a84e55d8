import { useState } from 'react';
import { Badge, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconPlayerStop } from '@tabler/icons-react';
import { formatClock, roundSeconds } from '@floorhand/contract/labor';
import { showHours } from '../utils/hours.ts';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { ApiError } from '../../../lib/api.ts';
import { isDefinite, useAttempts } from '../../../lib/attempts.ts';
import { readFeedback, refuseScan } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { useRunning, useStartLabor, useStopLabor } from '../api/current-labor.ts';
import { isQueuedEntry, type ShownEntry } from '../utils/queued-labor.ts';
import { QueuedStart } from './queued-start.tsx';
import { FetchedAt } from '../../../components/ui/fetched-at.tsx';
import { stoppedNotice } from '../utils/stopped-notice.ts';
import { useServerNow } from '../hooks/use-server-now.ts';
import { batchElapsed, epochSecs, liveShares } from '../utils/live-split.ts';
import { batchScanMeaning, EMPTY_STOP, type StopDraft } from '../utils/scan-meaning.ts';
import { LaborLinks } from './labor-links.tsx';
import { StopForm, type StopRequest } from './stop-form.tsx';
import { TaskLine } from './task-line.tsx';

/**
 * Batch task labor: every scanned task joins the worker's running batch; the batch's elapsed time is
 * split evenly over its tasks to the second (contract batchShares, the server's own split), live.
 * A task added within batchGraceTimeSecs of the batch start counts from the batch start. Each task
 * stops on its own, with its quantity done and complete flag.
 */
export function BatchTaskPage() {
  const { t } = useTranslation();
  const { current, running } = useRunning();
  const start = useStartLabor();
  const stop = useStopLabor();
  const attempts = useAttempts();
  // The entry whose stop form (the quantity prompt) is open, and what the form holds.
  const [stopping, setStopping] = useState<string | null>(null);
  const [stopDraft, setStopDraft] = useState<StopDraft>(EMPTY_STOP);
  const settings = current.data?.settings;
  const now = useServerNow(current.data?.serverTime);
  const shares = liveShares(running, now);
  const elapsed = batchElapsed(running, now);
  const batchStart = running.length ? Math.min(...running.map((e) => epochSecs(e.countedFrom))) : 0;
  const graceLeft = settings ? Math.max(0, settings.batchGraceTimeSecs - (now - batchStart)) : 0;

  const add = async (code: string) => {
    const taskCode = code.trim();
    if (!taskCode) return;
    // The device's time goes with it: a start queued offline is booked when it was made (issue 27).
    const attempt = attempts.begin({ add: taskCode }, () => ({ taskCode, mode: 'batch' as const, deviceTime: new Date().toISOString() }));
    try {
      const sent = await start.mutateAsync({
        ...attempt.body,
        idempotencyKey: attempt.key,
        label: t('Add task {{code}} to the batch', { code: taskCode }),
      });
      attempts.settle();
      if (sent.queued) return;
      const res = sent.res;
      // A batch left running from before a punch-out ended at the out: said so (a new batch starts).
      const ended = (res.stopped ?? []).some((e) => e.endedAtPunchOut) ? stoppedNotice(t, res.stopped ?? [], res.settings) : null;
      notifications.show({
        closeButtonProps: { 'aria-label': t('Close') },
        ...(ended ?? { color: 'green', message: t('{{code}} added to the batch', { code: taskCode }) }),
      });
    } catch (e) {
      if (!(e instanceof ApiError) || isDefinite(e.status)) attempts.settle();
    }
  };
  useScans((scan) => {
    const text = scan.text.trim();
    if (!text) return;
    const meaning = batchScanMeaning(running.find((e) => e.id === stopping)?.taskCode ?? null);
    if (meaning.kind === 'refused') return refuseScan(meaning, text);
    readFeedback(scan);
    void add(text);
  });
  const openStop = (entry: ShownEntry) => {
    setStopDraft(EMPTY_STOP);
    setStopping(entry.id);
  };
  // Cancelled (its button or Escape): the focus goes back to the task's Stop button, keyboard alone.
  const cancelStop = (entry: ShownEntry) => {
    setStopping(null);
    setTimeout(() => document.querySelector<HTMLButtonElement>(`[data-entry="${entry.id}"] [data-testid="batch-stop"]`)?.focus(), 0);
  };

  const onStop = async (entry: ShownEntry, r: StopRequest) => {
    // A task whose start is queued has no entry id yet: its stop names the task (a batch runs a task once).
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
      // Another task's stop form opened meanwhile stays open.
      setStopping((s) => (s === entry.id ? null : s));
      if (sent.queued) return;
      const notice = stoppedNotice(t, sent.res.stopped ?? [], settings);
      if (notice) notifications.show({ closeButtonProps: { 'aria-label': t('Close') }, ...notice });
    } catch (e) {
      if (!(e instanceof ApiError) || isDefinite(e.status)) attempts.settle();
    }
  };

  return (
    <Stack maw={720} gap="md">
      <ScanInput
        label={t('Add a task')}
        placeholder={t('Scan or type a task code, then Enter')}
        data-scan-field="task"
        data-testid="batch-scan"
        autoFocus
      />
      <FetchedAt at={current.dataUpdatedAt} testId="labor-fetched-at" />
      {running.length === 0 ? (
        <Text c="dimmed" data-testid="batch-empty">
          {current.isLoading ? t('Loading…') : t('No batch is running. Scan the tasks you work on together.')}
        </Text>
      ) : (
        <Paper withBorder p="md" radius="md" data-testid="batch">
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap">
              <Text fw={600}>{t('{{count}} tasks, split evenly', { count: running.length })}</Text>
              <Text fw={700} size="xl" ff="monospace" data-testid="batch-elapsed">
                {formatClock(elapsed)}
              </Text>
            </Group>
            {graceLeft > 0 && (
              <Badge variant="light" color="teal" data-testid="batch-grace">
                {t('Tasks added in the next {{secs}} s count from the batch start', { secs: graceLeft })}
              </Badge>
            )}
            <Stack gap="xs" data-testid="batch-split">
              {running.map((e) => {
                const share = shares.get(e.id) ?? 0;
                return (
                  <Paper
                    key={e.id}
                    withBorder
                    p="sm"
                    radius="sm"
                    data-testid="batch-entry"
                    data-task={e.taskCode}
                    data-entry={e.id}
                    data-queued={e.queued ? 'true' : undefined}
                  >
                    <Stack gap={6}>
                      {e.queued && <QueuedStart startedAt={e.startedAt} />}
                      <Group justify="space-between" wrap="nowrap" align="flex-start">
                        <TaskLine task={e} />
                        <Stack gap={0} align="flex-end">
                          <Text fw={700} ff="monospace" data-testid="share">
                            {formatClock(share)}
                          </Text>
                          {settings && (
                            <Text size="xs" c="dimmed">
                              {showHours(roundSeconds(share, settings.roundToMinutes), settings.displayScale)} {t('h')}
                            </Text>
                          )}
                        </Stack>
                      </Group>
                      <Progress
                        value={elapsed ? (share / elapsed) * 100 : 0}
                        size="sm"
                        aria-label={t('Share of {{code}}', { code: e.taskCode })}
                      />
                      {stopping === e.id ? (
                        <StopForm
                          draft={stopDraft}
                          onDraft={setStopDraft}
                          onStop={(r) => void onStop(e, r)}
                          onCancel={() => cancelStop(e)}
                          busy={stop.isPending}
                          testId="batch-stop-form"
                        />
                      ) : (
                        <Button
                          variant="light"
                          color="red"
                          size="md"
                          leftSection={<IconPlayerStop size={18} />}
                          onClick={() => openStop(e)}
                          data-testid="batch-stop"
                        >
                          {t('Stop {{code}}', { code: e.taskCode })}
                        </Button>
                      )}
                    </Stack>
                  </Paper>
                );
              })}
            </Stack>
          </Stack>
        </Paper>
      )}
      <LaborLinks current="batch" />
    </Stack>
  );
}
