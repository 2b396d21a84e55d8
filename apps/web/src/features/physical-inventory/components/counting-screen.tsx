import { useRef, useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import type { CounterLine } from '@floorhand/contract/counts';
import { ERR } from '@floorhand/contract/errors';
import { formatQty } from '@floorhand/contract/quantity';
import { isUnreachable } from '@floorhand/contract/offline';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';
import { ApiError } from '../../../lib/api.ts';
import { recordCount } from '../api/record-count.ts';
import { scanLocation } from '../api/scan-location.ts';
import { readQtyInput, showQty } from '../../../lib/inventory-format.ts';
import { readFeedback, refusedFeedback } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useConnection } from '../../../lib/offline/connection.ts';
import { currentPersonId, sendOrQueue, useOutbox } from '../../../lib/offline/outbox.ts';
import { useQueryClient } from '@tanstack/react-query';
import { FetchedAt } from '../../../components/ui/fetched-at.tsx';
import { countKeys } from '../api/keys.ts';
import { downloadSheetPdf } from '../api/download-sheet-pdf.ts';
import { useCountChange } from '../api/change-counts.ts';
import { useSheet } from '../api/get-sheet.ts';
import { usePhysicalInventoryPrefs } from '../hooks/use-physical-inventory-prefs.ts';
import { countScanMeaning, labelAnswer, oneMore, TYPE_THE_COUNT } from '../utils/scan-meaning.ts';
import { createScanQueue } from '../utils/scan-queue.ts';
import { CountedLines } from './counted-lines.tsx';

/** A label waiting for its quantity (or, for found stock, for what it is). */
interface Pending {
  stockId: string;
  found: boolean;
  /** What the server said of the scan (an item's barcode), shown over the found-stock form. */
  note?: string | null;
}

/**
 * Counting on a handheld, with a scanner alone: scan a location of the sheet, then each stock label.
 * A serial counts 1 with no prompt; other stock asks for the quantity; an unknown label asks what it
 * is (found stock). Scans queue and run one at a time, so a wedge burst loses or doubles nothing.
 * On a blind sheet the server never sends the system quantity, so nothing here can show it.
 */
export function CountingScreen({ sheetId, onBack }: { sheetId: string; onBack(): void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [prefs, setPrefs] = usePhysicalInventoryPrefs();
  const canPost = useSessionStore((s) => s.featureAccess?.['physicalInventory.post'] !== false);
  const [location, setLocation] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [qtyText, setQtyText] = useState('');
  const [partNumber, setPartNumber] = useState('');
  const [lot, setLot] = useState('');
  const [serial, setSerial] = useState('');
  const [log, setLog] = useState<Array<{ id: number; text: string; ok: boolean }>>([]);
  const [handled, setHandled] = useState(0);
  const [printing, setPrinting] = useState(false);
  const sheet = useSheet(sheetId, location);
  const submit = useCountChange('counts/sheet/submit');
  const online = useConnection((c) => c.state === 'online');
  // The sheet and its locations as last read: a location scanned offline has no answer of its own (issue 27).
  const lastRead = useRef<CallResponse<'counts/sheet/get'> | undefined>(undefined);
  if (sheet.data) lastRead.current = sheet.data;
  const read = sheet.data ?? lastRead.current;
  const outbox = useOutbox((o) => o.items);

  // The queue's handler reads the newest state through refs: it runs long after the render that made it.
  const state = useRef({
    location,
    prefs,
    codes: new Set<string>(),
    visited: new Set<string>(),
    lines: [] as CounterLine[],
    prompt: null as Pending | null,
    qtyText: '',
  });
  state.current.location = location;
  /** The prompt, set in the ref at once too: the next scan of a burst may come before the next render. */
  const prompt = (next: Pending | null, qty = '') => {
    state.current.prompt = next;
    state.current.qtyText = qty;
    setPending(next);
    setQtyText(qty);
  };
  const typeQty = (text: string) => {
    state.current.qtyText = text;
    setQtyText(text);
  };
  state.current.prefs = prefs;
  state.current.codes = new Set((read?.locations ?? []).map((l) => l.code));
  state.current.visited = new Set((read?.locations ?? []).filter((l) => l.visited).map((l) => l.code));
  state.current.lines = sheet.data?.lines ?? [];
  const logId = useRef(0);
  const say = (text: string, ok: boolean) => setLog((l) => [{ id: ++logId.current, text, ok }, ...l].slice(0, 8));

  /**
   * One count. `queueable`: kept in the outbox when the server cannot be reached (issue 27) — a count
   * with its quantity, or a serial's scan. A bare label scan is sent only (the server says whether it
   * needs a quantity): unreached, the caller asks the quantity and queues that.
   */
  const record = async (body: { stockId?: string; qty?: string; partNumber?: string; lot?: string; serial?: string }, queueable = true) => {
    const at = state.current.location!;
    // Posting at once is a reviewer's setting (physicalInventory.post): a counter's count waits for review.
    const adjustWithCount =
      state.current.prefs.adjustWithCount && useSessionStore.getState().featureAccess?.['physicalInventory.post'] !== false;
    const args = {
      idempotencyKey: crypto.randomUUID(),
      sheetId,
      location: at,
      ...body,
      allowSwsgt1: state.current.prefs.allowSwsgt1,
      adjustWithCount,
    };
    const what = body.stockId ?? body.partNumber ?? '';
    if (adjustWithCount && useConnection.getState().state !== 'online') {
      // Posting is not offline: a count that would post at once waits for the server.
      refusedFeedback();
      say(
        t('{{label}}: posting each count at once needs the server. Turn it off to count offline, or scan again when back online.', {
          label: what,
        }),
        false,
      );
      return;
    }
    let res: CallResponse<'counts/record'>;
    if (queueable) {
      const sent = await sendOrQueue('counts/record', args, {
        label: t('Count {{label}} in {{location}}: {{qty}}', {
          label: what,
          location: at,
          qty: body.qty === undefined ? '1' : showQty(Number(body.qty)),
        }),
        suppress: /^ERR_BAD_INPUT$/,
      });
      if (sent.queued) {
        say(t('{{label}}: {{qty}} — queued', { label: what, qty: body.qty === undefined ? '1' : showQty(Number(body.qty)) }), true);
        return;
      }
      res = sent.res;
    } else res = await recordCount(args);
    const line = res.line!;
    say(
      res.duplicate
        ? t('{{label}} counted already: counts once', { label: line.stockId ?? line.serial ?? '' })
        : t('{{label}}: {{qty}}{{posted}}', {
            label: line.stockId ?? line.partNumber,
            qty: showQty(line.myCount ?? 0),
            posted: res.posted ? ` (${t('posted')})` : '',
          }),
      true,
    );
    // The answered line goes into the location's list at once; no refetch of the whole list per scan (a burst of 1,000).
    qc.setQueryData<CallResponse<'counts/sheet/get'>>(countKeys.sheet(sheetId, at), (old) => {
      if (!old) return old;
      const rest = (old.lines ?? []).filter((l) => l.lineId !== line.lineId);
      return { ...old, lines: [line, ...rest] };
    });
  };

  const [queue] = useState(() =>
    createScanQueue(async (text) => {
      try {
        const { location: at, prompt: open } = state.current;
        const meaning = countScanMeaning({ location: at, prompt: open?.stockId ?? null }, text, state.current.codes.has(text));
        if (meaning.kind === 'refused') {
          refusedFeedback();
          say(t(meaning.message, meaning.params), false);
          return;
        }
        readFeedback();
        if (meaning.kind === 'oneMore') {
          const next = oneMore(state.current.qtyText);
          if (next === undefined) {
            refusedFeedback();
            say(t(TYPE_THE_COUNT, { label: text }), false);
          } else typeQty(next);
          return;
        }
        if (meaning.kind === 'location') {
          // Offline (issue 27): only a location the server has marked counted (its first scan sets the
          // movement its expected stock is judged by at posting) is counted on; no visit is made up here.
          const offline = () => {
            if (state.current.visited.has(text)) {
              setLocation(text);
              prompt(null);
              say(t('Location {{code}} (offline: counts are queued)', { code: text }), true);
            } else {
              refusedFeedback();
              say(t('Location {{code}}: scan this location again when back online', { code: text }), false);
            }
          };
          if (useConnection.getState().state !== 'online') return offline();
          try {
            const res = await scanLocation(sheetId, text);
            // Its answer holds the location's lines: they replace any kept copy at once (a copy read before an offline count may be older).
            qc.setQueryData<CallResponse<'counts/sheet/get'>>(countKeys.sheet(sheetId, res.location ?? text), (old) =>
              old ? { ...old, lines: res.lines ?? [] } : old,
            );
            setLocation(res.location ?? text);
          } catch (e) {
            if (e instanceof ApiError && isUnreachable(e.status)) return offline();
            throw e;
          }
          prompt(null);
          say(t('Location {{code}}', { code: text }), true);
          return;
        }
        if (useConnection.getState().state !== 'online') {
          // Offline: a serial counted here before counts 1 as online; any other label asks its quantity (checked at the replay).
          const known = state.current.lines.find((l) => l.stockId === text);
          if (known?.serial) await record({ stockId: text });
          else prompt({ stockId: text, found: false }, '1');
          return;
        }
        try {
          await record({ stockId: text }, false);
          prompt(null);
        } catch (e) {
          // Unreached: nothing was counted that a count with its quantity would double (a serial counts once); ask it.
          if (e instanceof ApiError && isUnreachable(e.status)) {
            prompt({ stockId: text, found: false }, '1');
            return;
          }
          // The prompt opens with 1 selected: the scan counted the first unit; digits replace it, the same label adds one.
          if (!(e instanceof ApiError) || e.err.code !== ERR.badInput) throw e;
          const answer = labelAnswer(e.err.message, e.err.detail);
          if (answer.kind === 'quantity') prompt({ stockId: text, found: false }, '1');
          else if (answer.kind === 'found') {
            setPartNumber(answer.partNumber);
            setLot('');
            setSerial(answer.serial);
            prompt({ stockId: text, found: true, note: answer.note }, '1');
          } else {
            refusedFeedback();
            say(`${text}: ${answer.message}`, false);
          }
        }
      } finally {
        setHandled((n) => n + 1);
      }
    }),
  );
  // Counting by scanning: the same label again is one more unit, so repeats are delivered. A scan sent
  // as the screen opens waits for the sheet's locations: before them every location would be refused.
  useScans((scan) => queue.push(scan.text.trim()), { allowRepeats: true, ready: Boolean(read) || sheet.isError || !online });

  const onQty = async (e: FormEvent) => {
    e.preventDefault();
    if (!pending) return;
    const qty = readQtyInput(qtyText);
    if (!qty.ok) return;
    try {
      await record({
        stockId: pending.stockId,
        qty: formatQty(qty.units),
        ...(pending.found
          ? {
              partNumber: partNumber.trim(),
              ...(lot.trim() ? { lot: lot.trim() } : {}),
              ...(serial.trim() ? { serial: serial.trim() } : {}),
            }
          : {}),
      });
      prompt(null);
    } catch (err) {
      if (err instanceof ApiError && err.err.code === ERR.badInput) say(`${pending.stockId}: ${err.err.message}`, false);
    }
  };

  const onSubmitSheet = async () => {
    // Counting ends for every counter of the sheet: asked first (issue 25), Cancel focused so a stray Enter keeps counting.
    const answer = await dialogs.confirm({
      type: 'question',
      title: t('Counting done?'),
      message: t('Send {{code}} to review? Counting ends for every counter; only lines due for a recount can be counted after it.', {
        code: read?.sheet?.code ?? '',
      }),
      neg: t('Cancel'),
      pos: t('Send to review'),
      focus: 'neg',
    });
    if (answer !== 'pos') return;
    await submit.mutateAsync({ sheetId });
    notifications.show({ color: 'green', message: t('Count sheet sent to review') });
    onBack();
  };

  const onPrint = async (code: string) => {
    setPrinting(true);
    try {
      await downloadSheetPdf(sheetId, code);
    } catch {
      // The error dialog said it.
    } finally {
      setPrinting(false);
    }
  };

  const s = read?.sheet;
  // The worker's counts of this location still in the outbox (issue 27), newest first, over the server's lines.
  const me = currentPersonId();
  const queued: Array<CounterLine & { queued: true }> = outbox
    .filter(
      (i) =>
        i.path === 'counts/record' &&
        i.state !== 'refused' &&
        i.person.accountId === me &&
        i.args.sheetId === sheetId &&
        i.args.location === location,
    )
    .reverse()
    .map((i) => {
      const a = i.args as Partial<CallArgs<'counts/record'>>;
      return {
        lineId: `queued:${i.id}`,
        location: location ?? '',
        stockId: a.stockId ?? null,
        partNumber: a.partNumber ?? '',
        description: '',
        lot: a.lot ?? null,
        serial: a.serial ?? null,
        found: false,
        status: 'counted' as const,
        myCount: a.qty === undefined ? 1 : Number(a.qty),
        queued: true as const,
      };
    })
    .filter((l, idx, all) => all.findIndex((o) => o.stockId === l.stockId && o.partNumber === l.partNumber) === idx);
  const overridden = new Set(queued.map((q) => q.stockId).filter(Boolean));
  const lines: Array<CounterLine & { queued?: true }> = [
    ...queued,
    ...(sheet.data?.lines ?? []).filter((l) => !l.stockId || !overridden.has(l.stockId)),
  ];
  const visited = (read?.locations ?? []).filter((l) => l.visited).length;

  return (
    <Stack gap="sm" maw={720} data-testid="pi-counting" data-handled={handled}>
      <Group gap="xs" wrap="nowrap">
        <Button variant="subtle" leftSection={<IconArrowLeft size={18} />} onClick={onBack} data-testid="pi-back" px="xs">
          {t('Sheets')}
        </Button>
        <Title order={2} fz="lg" lineClamp={1}>
          {s ? `${s.code} · ${s.warehouse}` : ''}
        </Title>
        {s?.blind && <Badge color="dark">{t('Blind')}</Badge>}
      </Group>
      <FetchedAt at={sheet.dataUpdatedAt} testId="pi-fetched-at" />
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" data-testid="pi-progress">
          {t('{{visited}} of {{total}} locations scanned', { visited, total: read?.locations?.length ?? 0 })}
        </Text>
        {s && (
          <Button
            variant="default"
            leftSection={<IconPrinter size={18} />}
            onClick={() => void onPrint(s.code)}
            loading={printing}
            data-testid="pi-print"
            px="sm"
          >
            {t('Print sheet')}
          </Button>
        )}
      </Group>
      <ScanInput label={location ? t('Scan a stock label or another location') : t('Scan a location')} data-testid="pi-scan" autoFocus />
      <Paper withBorder p="sm">
        <Text fw={700} data-testid="pi-location">
          {location ? t('Location {{code}}', { code: location }) : t('No location scanned yet')}
        </Text>
      </Paper>

      {pending && (
        <Paper withBorder p="sm" component="form" onSubmit={(e: FormEvent) => void onQty(e)} data-testid="pi-qty-form">
          <Stack gap="xs">
            <Text fw={600} data-testid="pi-qty-title">
              {pending.found
                ? (pending.note ?? t('{{label}} is not known: found stock', { label: pending.stockId }))
                : t('Count of {{label}}', { label: pending.stockId })}
            </Text>
            {pending.found && (
              <>
                <TextInput
                  label={t('Part number')}
                  value={partNumber}
                  onChange={(e) => setPartNumber(e.currentTarget.value)}
                  data-testid="pi-found-part"
                />
                <Group grow>
                  <TextInput label={t('Lot')} value={lot} onChange={(e) => setLot(e.currentTarget.value)} data-testid="pi-found-lot" />
                  <TextInput
                    label={t('Serial')}
                    value={serial}
                    onChange={(e) => setSerial(e.currentTarget.value)}
                    data-testid="pi-found-serial"
                  />
                </Group>
              </>
            )}
            <QuantityInput
              label={t('Counted quantity')}
              value={qtyText}
              onChange={typeQty}
              prompt={{ onCancel: () => prompt(null) }}
              data-testid="pi-qty"
            />
            <Group grow>
              <Button variant="default" onClick={() => prompt(null)} px="xs" data-testid="pi-qty-cancel">
                {t('Skip')}
              </Button>
              <Button type="submit" px="xs" data-testid="pi-qty-submit">
                {t('Record count')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}

      <Stack gap={4} data-testid="pi-log" aria-live="polite">
        {log.map((l) => (
          <Text key={l.id} size="sm" fw={l.ok ? 400 : 700} data-testid={l.ok ? 'pi-log-ok' : 'pi-log-problem'}>
            {l.ok ? `✓ ${l.text}` : `✗ ${l.text}`}
          </Text>
        ))}
      </Stack>

      {location && <CountedLines lines={lines} syscm={prefs.syscm} />}

      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Switch
            label={t('Show the system quantity (sheets that are not blind)')}
            checked={prefs.syscm}
            onChange={(e) => setPrefs({ syscm: e.currentTarget.checked })}
            size="md"
            data-testid="pi-syscm"
          />
          <Switch
            label={t('Accept a serial counted above 1 (flagged for review)')}
            checked={prefs.allowSwsgt1}
            onChange={(e) => setPrefs({ allowSwsgt1: e.currentTarget.checked })}
            size="md"
            data-testid="pi-swsgt1"
          />
          {canPost && (
            <Switch
              label={t('Post each count at once')}
              checked={prefs.adjustWithCount}
              onChange={(e) => setPrefs({ adjustWithCount: e.currentTarget.checked })}
              size="md"
              data-testid="pi-adjust-with-count"
            />
          )}
        </Stack>
      </Paper>
      {s?.state === 'counting' && (
        <Button color="orange" onClick={() => void onSubmitSheet()} loading={submit.isPending} disabled={!online} data-testid="pi-submit">
          {t('Counting done: send to review')}
        </Button>
      )}
      {s?.state === 'counting' && !online && (
        <Alert color="orange" data-testid="pi-needs-server">
          {t('Needs the server: sending to review waits until the connection returns. Counts go on and are queued.')}
        </Alert>
      )}
      {s?.state === 'review' && <Alert color="orange">{t('In review: only lines due for a recount can be counted.')}</Alert>}
    </Stack>
  );
}
