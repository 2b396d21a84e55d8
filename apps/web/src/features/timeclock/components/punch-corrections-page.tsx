import { useState } from 'react';
import { Badge, Button, Group, Modal, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconDownload, IconEdit, IconPlus } from '@tabler/icons-react';
import { isCorrectionKind, type CorrectionKind, type PunchRow } from '@floorhand/contract/timeclock';
import { DataTable, type DataColumn, type RowAction } from '../../../components/ui/data-table.tsx';
import { ApiError } from '../../../lib/api.ts';
import { isDefinite, useAttempts } from '../../../lib/attempts.ts';
import { downloadPunchesCsv, localDayRange } from '../../../lib/punch-export.ts';
import { useCorrectPunch, usePunchList } from '../api/punch.ts';
import { dayTime, fromLocalInput, isoDate, toLocalInput } from '../utils/format.ts';

/** Today's midnight moved by whole calendar days (not 24-hour steps: a daylight-saving day is a day). */
const dayStart = (offsetDays: number) => {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() + offsetDays);
  return d;
};
const dateInput = (d: Date) => isoDate(d);

type Editing = { row: PunchRow; mode: 'correct' | 'add' };

function CorrectionForm({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const { t } = useTranslation();
  const { row, mode } = editing;
  const [kind, setKind] = useState<CorrectionKind>(mode === 'add' ? (row.kind === 'in' ? 'out' : 'in') : row.kind);
  const [at, setAt] = useState(toLocalInput(new Date(row.at)));
  const [reason, setReason] = useState(mode === 'correct' && row.status === 'pending' ? t('Confirmed with the worker') : '');
  const correct = useCorrectPunch();
  const attempts = useAttempts();
  const iso = fromLocalInput(at);
  const reasonProblem = reason.trim().length < 3 ? t('Give a reason (at least 3 characters)') : null;
  const save = async () => {
    if (!iso || reasonProblem) return;
    const args = {
      kind,
      at: iso,
      reason: reason.trim(),
      ...(mode === 'correct' ? { replacesId: row.id } : { accountId: row.accountId }),
    };
    const attempt = attempts.begin(args, () => args);
    try {
      await correct.mutateAsync({ ...attempt.body, idempotencyKey: attempt.key });
      attempts.settle();
      onClose();
    } catch (e) {
      // The error dialog has said why; a network failure keeps the same key for a retry.
      if (e instanceof ApiError && isDefinite(e.status)) attempts.settle();
    }
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={
        mode === 'add'
          ? t('Add a punch for {{name}}', { name: row.workerName })
          : t('Correct the punch of {{name}}', { name: row.workerName })
      }
      centered
    >
      <Stack>
        {mode === 'correct' && (
          <Text size="sm" data-testid="correct-original">
            {t('Original')}: {row.kind} {dayTime(row.at)} ({row.source}, {row.status}).{' '}
            {t('It stays on record; the correction is a new record.')}
          </Text>
        )}
        <Select
          label={t('Punch')}
          data={[
            { value: 'in', label: t('In') },
            { value: 'out', label: t('Out') },
            ...(mode === 'correct' ? [{ value: 'void', label: t('Void (does not count)') }] : []),
          ]}
          value={kind}
          onChange={(v) => v && isCorrectionKind(v) && setKind(v)}
          allowDeselect={false}
          size="md"
          data-testid="correct-kind"
        />
        <TextInput
          label={t('Time')}
          description={t('Year-month-day and 24-hour time, like {{example}}', { example: toLocalInput(new Date(row.at)) })}
          placeholder={t('YYYY-MM-DD HH:mm')}
          value={at}
          onChange={(e) => setAt(e.currentTarget.value)}
          error={iso ? null : t('Write it as year-month-day hours:minutes, like {{example}}', { example: toLocalInput(new Date(row.at)) })}
          autoComplete="off"
          size="md"
          data-testid="correct-at"
        />
        <TextInput
          label={t('Reason')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={reason ? reasonProblem : null}
          maxLength={200}
          size="md"
          data-testid="correct-reason"
        />
        <Group justify="flex-end">
          <Button variant="default" size="md" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button
            size="md"
            onClick={() => void save()}
            disabled={!iso || !!reasonProblem}
            loading={correct.isPending}
            data-testid="correct-save"
          >
            {t('Save correction')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A badge's label whole: Mantine cuts it with an ellipsis when the cell is narrow. */
const WHOLE_LABEL = { label: { overflow: 'visible', textOverflow: 'clip' } } as const;

/** The record's state as badges: pending, edited, replaced (they wrap, never cut). */
function StateBadges({ row }: { row: PunchRow }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="wrap" data-testid="punch-state">
      {row.status === 'pending' && !row.replacedById && (
        <Badge color="orange" style={{ flexShrink: 0 }} styles={WHOLE_LABEL}>
          {t('pending')}
        </Badge>
      )}
      {row.edited && (
        <Badge color="grape" variant="light" style={{ flexShrink: 0 }} styles={WHOLE_LABEL}>
          {t('edited')}
        </Badge>
      )}
      {row.replacedById && (
        <Badge color="gray" variant="outline" style={{ flexShrink: 0 }} styles={WHOLE_LABEL}>
          {t('replaced')}
        </Badge>
      )}
    </Group>
  );
}

/**
 * A punch on a handheld: the worker, the punch and its day and time on one line, the state, where it
 * came from and why, and the two actions under them at full width (beside them the values were
 * squeezed to a word a line at 360 px).
 */
function PunchCard({ row, onCorrect, onAdd }: { row: PunchRow; onCorrect: () => void; onAdd: () => void }): ReactNode {
  const { t } = useTranslation();
  const reason = [row.reason, row.approverName ? t('by {{name}}', { name: row.approverName }) : null].filter(Boolean).join(' ');
  return (
    <Stack gap={4} data-testid={`punch-card-${row.id}`}>
      <Text fw={600}>{row.workerName}</Text>
      <Text data-testid="punch-when">
        {row.kind === 'in' ? t('In') : row.kind === 'out' ? t('Out') : t('Void')} · {dayTime(row.at)}
      </Text>
      <StateBadges row={row} />
      <Text size="sm" c="dimmed">
        {row.source}
        {row.deviceId ? ` · ${row.deviceId}` : ''}
      </Text>
      {reason && <Text size="sm">{reason}</Text>}
      <Group gap="xs" grow wrap="nowrap" mt={4}>
        {!row.replacedById && (
          <Button
            size="md"
            px="xs"
            variant="light"
            leftSection={<IconEdit size={18} />}
            onClick={onCorrect}
            data-testid={`correct-${row.id}`}
          >
            {t('Correct')}
          </Button>
        )}
        <Button size="md" px="xs" variant="light" leftSection={<IconPlus size={18} />} onClick={onAdd} data-testid={`add-${row.id}`}>
          {t('Add punch')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Punch corrections (/punches): for timeclockAdmin and admins, who may not open the time clock itself
 * (spec: only time-clock accounts and admins). Every record shows, corrections beside what they
 * replace; a correction is a new record with a reason and the approver.
 */
export function PunchCorrectionsPage() {
  const { t } = useTranslation();
  const [from, setFrom] = useState(dateInput(dayStart(-7)));
  const [to, setTo] = useState(dateInput(dayStart(0)));
  const [pendingOnly, setPendingOnly] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
  const range = isDay(from) && isDay(to) ? localDayRange({ from, to }) : undefined;
  const valid = !!range && Date.parse(range.to) > Date.parse(range.from);
  const list = usePunchList({
    ...(valid ? range : { from: new Date(0).toISOString(), to: new Date(86_400_000).toISOString() }),
    pendingOnly,
  });
  const rows = list.data?.punches ?? [];

  const columns: DataColumn<PunchRow>[] = [
    { id: 'worker', header: t('Worker'), cell: (r) => r.workerName, sortValue: (r) => r.workerName, card: 'title' },
    { id: 'kind', header: t('Punch'), cell: (r) => (r.kind === 'in' ? t('In') : r.kind === 'out' ? t('Out') : t('Void')) },
    { id: 'at', header: t('Time'), cell: (r) => <span style={{ whiteSpace: 'nowrap' }}>{dayTime(r.at)}</span>, sortValue: (r) => r.at },
    { id: 'state', header: t('State'), cell: (r) => <StateBadges row={r} /> },
    { id: 'source', header: t('Source'), cell: (r) => `${r.source}${r.deviceId ? ` · ${r.deviceId}` : ''}`, card: 'line' },
    {
      id: 'reason',
      header: t('Reason'),
      cell: (r) => [r.reason, r.approverName ? t('by {{name}}', { name: r.approverName }) : null].filter(Boolean).join(' '),
      card: 'line',
    },
    { id: 'photo', header: t('Photo'), cell: (r) => (r.photoMediaId ? t('yes') : ''), card: 'hidden' },
  ];
  const actions: RowAction<PunchRow>[] = [
    {
      id: 'correct',
      label: () => t('Correct'),
      icon: <IconEdit size={18} />,
      allowed: (r) => !r.replacedById,
      onClick: (r) => setEditing({ row: r, mode: 'correct' }),
      testId: (r) => `correct-${r.id}`,
    },
    {
      id: 'add',
      label: () => t('Add punch'),
      icon: <IconPlus size={18} />,
      onClick: (r) => setEditing({ row: r, mode: 'add' }),
      testId: (r) => `add-${r.id}`,
    },
  ];

  return (
    <Stack gap="sm" maw={1400}>
      <Group align="flex-end" wrap="wrap">
        {/* Year-month-day text, not the browser's date field (its format follows the locale). */}
        <TextInput
          label={t('From')}
          placeholder={t('YYYY-MM-DD')}
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
          error={isDay(from) ? null : t('Like {{example}}', { example: isoDate(new Date()) })}
          autoComplete="off"
          w={150}
          size="md"
          data-testid="punches-from"
        />
        <TextInput
          label={t('To')}
          placeholder={t('YYYY-MM-DD')}
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          error={isDay(to) ? null : t('Like {{example}}', { example: isoDate(new Date()) })}
          autoComplete="off"
          w={150}
          size="md"
          data-testid="punches-to"
        />
        <Switch
          label={t('Pending only')}
          checked={pendingOnly}
          onChange={(e) => setPendingOnly(e.currentTarget.checked)}
          size="md"
          data-testid="punches-pending"
        />
        <Button
          variant="default"
          size="md"
          leftSection={<IconDownload size={18} />}
          disabled={!valid}
          onClick={() => void downloadPunchesCsv(range!).catch(() => undefined)}
          data-testid="punches-export"
        >
          {t('Export CSV')}
        </Button>
      </Group>
      <DataTable
        rows={rows}
        columns={columns}
        rowKey={(r) => r.id}
        actions={actions}
        renderCard={(r) => (
          <PunchCard row={r} onCorrect={() => setEditing({ row: r, mode: 'correct' })} onAdd={() => setEditing({ row: r, mode: 'add' })} />
        )}
        loading={list.isLoading}
        empty={t('No punches in this period')}
        testId="punches-table"
      />
      {editing && <CorrectionForm editing={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
