import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Card, Center, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconCamera, IconCameraOff, IconLogin2, IconLogout2 } from '@tabler/icons-react';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import type { Punch } from '@floorhand/contract/timeclock';
import { isUnreachable } from '@floorhand/contract/offline';
import { ApiError } from '../../../lib/api.ts';
import { useConnection } from '../../../lib/offline/connection.ts';
import { enqueue as enqueueOutbox } from '../../../lib/offline/outbox.ts';
import { signOfflinePunchHere } from '../utils/offline-punch.ts';
import { BadgeEntry } from '../../../components/scanning/badge-entry.tsx';
import { readFeedback, refusedFeedback } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { punchBadge, uploadClockPhoto } from '../api/punch.ts';
import { useClockCamera } from '../hooks/use-clock-camera.ts';
import { clockTime, dayTime, fromLocalInput, isoDate, weekday } from '../utils/format.ts';

/** How long an answer stays on the clock before it is ready for the next worker. */
const SHOW_MS = 8000;

type PunchAnswer = CallResponse<'timeclock/punch'>;
type Shown =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'answer'; answer: PunchAnswer }
  | { kind: 'missed'; answer: PunchAnswer; args: CallArgs<'timeclock/punch'> }
  | { kind: 'error'; message: string }
  | { kind: 'queued'; at: string };

/** The time, large; it alone renders every second (the page does not, so wedge keys are never held up). */
function ClockFace() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <>
      <Title order={2} fz={{ base: 44, sm: 64 }} data-testid="clock" aria-live="off">
        {clockTime(now.toISOString())}:{String(now.getSeconds()).padStart(2, '0')}
      </Title>
      <Text size="lg" data-testid="clock-date">
        {weekday(now)} {isoDate(now)}
      </Text>
    </>
  );
}

function TodayPunches({ punches }: { punches: readonly Punch[] }) {
  const { t } = useTranslation();
  if (!punches.length) return null;
  return (
    <Group gap="xs" data-testid="clock-today" aria-label={t("Today's punches")}>
      {punches.map((p) => (
        <Badge key={p.id} size="lg" variant={p.status === 'pending' ? 'outline' : 'light'} color={p.kind === 'in' ? 'teal' : 'gray'}>
          {p.kind === 'in' ? t('In') : t('Out')} {clockTime(p.at)}
          {p.status === 'pending' ? ` (${t('pending')})` : ''}
        </Badge>
      ))}
    </Group>
  );
}

function AnswerCard({ answer }: { answer: PunchAnswer }) {
  const { t } = useTranslation();
  const name = answer.worker ? `${answer.worker.firstName} ${answer.worker.initial}.` : '';
  const isIn = !!answer.status?.in;
  const since = answer.status?.since;
  const headline =
    answer.result === 'forTimekeeper'
      ? answer.maxShiftHours
        ? t('Out at {{time}}: more than {{hours}} hours since you came in, so a timekeeper confirms it', {
            time: since ? clockTime(since) : '',
            hours: answer.maxShiftHours,
          })
        : t('Punch at {{time}} kept for a timekeeper to confirm', {
            time: answer.punch ? clockTime(answer.punch.at) : since ? clockTime(since) : '',
          })
      : answer.result === 'duplicate'
        ? t('Already punched {{what}} at {{time}}', { what: isIn ? t('in') : t('out'), time: since ? clockTime(since) : '' })
        : isIn
          ? t('In at {{time}}', { time: since ? clockTime(since) : '' })
          : t('Out at {{time}}', { time: since ? clockTime(since) : '' });
  return (
    <Card withBorder padding="lg" radius="md" data-testid="clock-answer" data-result={answer.result} data-in={String(isIn)}>
      <Stack gap="xs">
        <Group gap="sm" wrap="nowrap">
          {isIn ? <IconLogin2 size={36} color="var(--mantine-color-teal-text)" aria-hidden /> : <IconLogout2 size={36} aria-hidden />}
          <div>
            <Text size="xl" fw={700}>
              {name}
            </Text>
            <Text size="lg" data-testid="clock-headline">
              {headline}
            </Text>
          </div>
        </Group>
        <TodayPunches punches={answer.today ?? []} />
      </Stack>
    </Card>
  );
}

function MissedQuestion({
  answer,
  onAnswer,
  onLeavingNow,
  onCancel,
}: {
  answer: PunchAnswer;
  onAnswer: (iso: string) => void;
  onLeavingNow: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const inSince = answer.inSince ?? '';
  // Empty: the clock does not guess when the worker left; they say it (the timekeeper confirms it).
  const [value, setValue] = useState('');
  const [tried, setTried] = useState(false);
  const iso = fromLocalInput(value);
  const problem = !value.trim()
    ? t('Enter the date and time you left, like {{example}}', { example: `${isoDate(new Date())} 16:00` })
    : !iso
      ? t('Write it as year-month-day hours:minutes, like {{example}}', { example: `${isoDate(new Date())} 16:00` })
      : Date.parse(iso) <= Date.parse(inSince)
        ? t('The time must be after you came in ({{time}})', { time: dayTime(inSince) })
        : Date.parse(iso) > Date.now()
          ? t('The time cannot be in the future')
          : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (iso && !problem) onAnswer(iso);
  };
  return (
    <Card withBorder padding="lg" radius="md" data-testid="clock-missed">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Text size="xl" fw={700}>
            {answer.worker ? `${answer.worker.firstName} ${answer.worker.initial}.` : ''}
          </Text>
          <Text size="lg" data-testid="clock-missed-question">
            {t('In since {{time}} — when did you leave?', { time: dayTime(inSince) })}
          </Text>
          <TextInput
            label={t('I left at')}
            description={t('Year-month-day and 24-hour time, like {{example}}', { example: `${isoDate(new Date())} 16:00` })}
            placeholder={t('YYYY-MM-DD HH:mm')}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={tried || value ? problem : null}
            withAsterisk
            aria-required
            autoComplete="off"
            inputMode="numeric"
            size="md"
            data-testid="clock-missed-time"
          />
          <Text size="sm" c="dimmed">
            {t('A supervisor confirms this time. Then you are punched in now.')}
          </Text>
          <Group>
            <Button type="submit" size="md" data-testid="clock-missed-submit">
              {t('Send and punch in')}
            </Button>
            {/* A long shift is not a missed punch: the worker is leaving now and punches out. */}
            <Button variant="light" size="md" onClick={onLeavingNow} data-testid="clock-missed-leaving-now">
              {t('Leaving now: punch out')}
            </Button>
            <Button variant="default" size="md" onClick={onCancel}>
              {t('Cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/**
 * The time clock: a worker scans a badge (anywhere on the page, wedge or camera) or types badge and
 * PIN; the clock takes a still from the time-clock camera, punches, and shows their status and
 * today's punches for a few seconds. No list of staff is ever shown. Scans that arrive while one is
 * sent wait their turn: none is dropped.
 */
export function TimeclockPage() {
  const { t } = useTranslation();
  const [shown, setShown] = useState<Shown>({ kind: 'idle' });
  const camera = useClockCamera();
  const queue = useRef<Promise<void>>(Promise.resolve());
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(clearTimer.current), []);

  const showFor = (next: Shown) => {
    clearTimeout(clearTimer.current);
    setShown(next);
    if (next.kind === 'answer' || next.kind === 'error' || next.kind === 'queued')
      clearTimer.current = setTimeout(() => setShown({ kind: 'idle' }), SHOW_MS);
  };

  /**
   * A punch the clock could not send (issue 27): signed with this device's secret at the scan and kept
   * in the outbox with the photo, replayed when the server answers and recorded at this time. A typed
   * badge is not kept: its PIN would wait on the device, and only the server can check it.
   */
  const keepOffline = async (args: CallArgs<'timeclock/punch'>, key: string, still: string | null, deviceTime: Date) => {
    if (args.entry === 'typed') {
      refusedFeedback();
      showFor({
        kind: 'error',
        message: t('A typed badge needs the server to check the PIN. Scan your badge, or try again when the connection returns.'),
      });
      return;
    }
    const signed = await signOfflinePunchHere({ badge: args.badge, idempotencyKey: key, deviceTime, photoDataUrl: still });
    if (!signed) {
      refusedFeedback();
      showFor({ kind: 'error', message: t('The clock could not reach the server. Try again.') });
      return;
    }
    const { photoMediaId: _photo, ...rest } = args;
    await enqueueOutbox(
      'timeclock/punch',
      { ...rest, ...signed },
      t('Punch at {{time}}', { time: clockTime(deviceTime.toISOString()) }),
      still ? { dataUrl: still, purpose: 'clockPhoto', arg: 'photoMediaId' } : undefined,
    );
    readFeedback();
    showFor({ kind: 'queued', at: deviceTime.toISOString() });
  };

  const send = async (args: CallArgs<'timeclock/punch'>) => {
    setShown({ kind: 'busy' });
    // An answer to the question sends the photo of the scan that raised it (kept in args); the
    // server deletes photos of scans that end in no punch.
    const still = args.photoMediaId ? null : camera.still();
    const key = args.idempotencyKey ?? crypto.randomUUID();
    const scannedAt = new Date();
    if (useConnection.getState().state !== 'online') return keepOffline(args, key, still, scannedAt);
    try {
      const photo = still
        ? await uploadClockPhoto(still).catch((e: unknown) =>
            e instanceof ApiError && isUnreachable(e.status) ? Promise.reject(e) : undefined,
          )
        : undefined;
      const sent = { ...args, idempotencyKey: key, ...(photo?.mediaId ? { photoMediaId: photo.mediaId } : {}) };
      const answer = await punchBadge({ ...sent, clientTime: new Date().toISOString() });
      readFeedback();
      // The question's answer is a new punch: a key of its own.
      if (answer.result === 'missedPunch') showFor({ kind: 'missed', answer, args: { ...sent, idempotencyKey: undefined } });
      else showFor({ kind: 'answer', answer });
    } catch (e) {
      // The request may have reached the server with its answer lost: the kept punch is signed anew
      // (another key: the server's key is bound to the request as first sent), and if the first did
      // arrive, the replay at the same scan time is a duplicate scan there, never a second punch.
      if (e instanceof ApiError && isUnreachable(e.status)) return keepOffline(args, crypto.randomUUID(), still, scannedAt);
      refusedFeedback();
      showFor({ kind: 'error', message: e instanceof ApiError ? e.err.message : t('The clock could not reach the server. Try again.') });
    }
  };
  const enqueue = (args: CallArgs<'timeclock/punch'>) => {
    queue.current = queue.current.then(() => send(args));
  };

  useScans((scan) => enqueue({ badge: scan.text, entry: 'scan' }));

  return (
    <Center mih="60vh">
      <Stack align="center" w="100%" maw={560} gap="md">
        <ClockFace />

        <div aria-live="polite" style={{ width: '100%' }}>
          {shown.kind === 'idle' && (
            <Text ta="center" size="lg" c="dimmed" data-testid="clock-prompt">
              {t('Scan your badge to punch in or out.')}
            </Text>
          )}
          {shown.kind === 'busy' && (
            <Text ta="center" size="lg" data-testid="clock-busy">
              {t('One moment…')}
            </Text>
          )}
          {shown.kind === 'answer' && <AnswerCard answer={shown.answer} />}
          {shown.kind === 'missed' && (
            <MissedQuestion
              answer={shown.answer}
              onAnswer={(iso) => enqueue({ ...shown.args, missedOutAt: iso })}
              onLeavingNow={() => enqueue({ ...shown.args, leavingNow: true })}
              onCancel={() => showFor({ kind: 'idle' })}
            />
          )}
          {shown.kind === 'queued' && (
            <Alert color="orange" variant="light" title={t('Punch kept on this clock')} data-testid="clock-queued">
              {t('Scanned at {{time}}. It is sent when the connection returns and counts at that time.', { time: clockTime(shown.at) })}
            </Alert>
          )}
          {shown.kind === 'error' && (
            <Alert color="red" variant="light" title={t('Not punched')} data-testid="clock-error">
              {shown.message}
            </Alert>
          )}
        </div>

        <BadgeEntry testIdPrefix="clock" submitLabel={t('Punch')} onTyped={(badge, pin) => enqueue({ badge, entry: 'typed', pin })} />

        <Group gap="xs" c="dimmed" data-testid="clock-camera-state">
          {camera.state === 'on' ? <IconCamera size={18} aria-hidden /> : <IconCameraOff size={18} aria-hidden />}
          <Text size="sm">
            {camera.state === 'on'
              ? t('Camera on: a photo is taken with each punch')
              : camera.state === 'failed'
                ? t('The time-clock camera is not available')
                : t('No time-clock camera set up')}
          </Text>
        </Group>
        <video
          ref={camera.video}
          muted
          playsInline
          autoPlay
          aria-hidden
          style={{ width: 96, height: 72, borderRadius: 4, background: '#000', display: camera.configured ? 'block' : 'none' }}
          data-testid="clock-video"
        />
      </Stack>
    </Center>
  );
}
