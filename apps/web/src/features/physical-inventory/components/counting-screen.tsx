import { useRef, useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import type { CallResponse } from '@floorhand/contract/api';
import type { CounterLine } from '@floorhand/contract/counts';
import { ERR } from '@floorhand/contract/errors';
import { formatQty } from '@floorhand/contract/quantity';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';
import { ApiError, call } from '../../../lib/api.ts';
import { readQtyInput, showQty } from '../../../lib/inventory-format.ts';
import { readFeedback, refusedFeedback } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useQueryClient } from '@tanstack/react-query';
import { FetchedAt } from '../../../components/ui/fetched-at.tsx';
import { countKeys, downloadSheetPdf, useCountChange, useSheet } from '../api/counts-api.ts';
import { usePhysicalInventoryPrefs } from '../hooks/use-physical-inventory-prefs.ts';
import { countScanMeaning, labelAnswer, oneMore, TYPE_THE_COUNT } from '../utils/scan-meaning.ts';
import { createScanQueue } from '../utils/scan-queue.ts';

/** A label waiting for its quantity (or, for found stock, for what it is). */
interface Pending {
  stockId: string;
  found: boolean;
  /** What the server said of the scan (an item's barcode), shown over the found-stock form. */
  note?: string | null;
}

/** Lines of the location drawn at most: a handheld lists the newest. */
const LINES_SHOWN = 50;

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

  // The queue's handler reads the newest state through refs: it runs long after the render that made it.
  const state = useRef({ location, prefs, codes: new Set<string>(), prompt: null as Pending | null, qtyText: '' });
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
  state.current.codes = new Set((sheet.data?.locations ?? []).map((l) => l.code));
  const logId = useRef(0);
  const say = (text: string, ok: boolean) => setLog((l) => [{ id: ++logId.current, text, ok }, ...l].slice(0, 8));

  const record = async (body: { stockId?: string; qty?: string; partNumber?: string; lot?: string; serial?: string }) => {
    const at = state.current.location!;
    const res = await call(
      'counts/record',
      {
        idempotencyKey: crypto.randomUUID(),
        sheetId,
        location: at,
        ...body,
        allowSwsgt1: state.current.prefs.allowSwsgt1,
        // Posting at once is a reviewer's setting (physicalInventory.post): a counter's count waits for review.
        adjustWithCount: state.current.prefs.adjustWithCount && useSessionStore.getState().featureAccess?.['physicalInventory.post'] !== false,
      },
      { suppress: /^ERR_BAD_INPUT$/ },
    );
    const line = res.line!;
    say(
      res.duplicate
        ? t('{{label}} counted already: counts once', { label: line.stockId ?? line.serial ?? '' })
        : t('{{label}}: {{qty}}{{posted}}', { label: line.stockId ?? line.partNumber, qty: showQty(line.myCount ?? 0), posted: res.posted ? ` (${t('posted')})` : '' }),
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
          const res = await call('counts/scanLocation', { sheetId, location: text });
          setLocation(res.location ?? text);
          prompt(null);
          say(t('Location {{code}}', { code: text }), true);
          return;
        }
        try {
          await record({ stockId: text });
          prompt(null);
        } catch (e) {
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
  // Counting by scanning: the same label again is one more unit, so repeats are delivered.
  useScans((scan) => queue.push(scan.text.trim()), { allowRepeats: true });

  const onQty = async (e: FormEvent) => {
    e.preventDefault();
    if (!pending) return;
    const qty = readQtyInput(qtyText);
    if (!qty.ok) return;
    try {
      await record({
        stockId: pending.stockId,
        qty: formatQty(qty.units),
        ...(pending.found ? { partNumber: partNumber.trim(), ...(lot.trim() ? { lot: lot.trim() } : {}), ...(serial.trim() ? { serial: serial.trim() } : {}) } : {}),
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
      message: t('Send {{code}} to review? Counting ends for every counter; only lines due for a recount can be counted after it.', { code: sheet.data?.sheet?.code ?? '' }),
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

  const s = sheet.data?.sheet;
  const lines: CounterLine[] = sheet.data?.lines ?? [];
  const visited = (sheet.data?.locations ?? []).filter((l) => l.visited).length;

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
          {t('{{visited}} of {{total}} locations scanned', { visited, total: sheet.data?.locations?.length ?? 0 })}
        </Text>
        {s && (
          <Button variant="default" leftSection={<IconPrinter size={18} />} onClick={() => void onPrint(s.code)} loading={printing} data-testid="pi-print" px="sm">
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
            <Text fw={600} data-testid="pi-qty-title">{pending.found ? (pending.note ?? t('{{label}} is not known: found stock', { label: pending.stockId })) : t('Count of {{label}}', { label: pending.stockId })}</Text>
            {pending.found && (
              <>
                <TextInput label={t('Part number')} value={partNumber} onChange={(e) => setPartNumber(e.currentTarget.value)} data-testid="pi-found-part" />
                <Group grow>
                  <TextInput label={t('Lot')} value={lot} onChange={(e) => setLot(e.currentTarget.value)} data-testid="pi-found-lot" />
                  <TextInput label={t('Serial')} value={serial} onChange={(e) => setSerial(e.currentTarget.value)} data-testid="pi-found-serial" />
                </Group>
              </>
            )}
            <QuantityInput label={t('Counted quantity')} value={qtyText} onChange={typeQty} prompt={{ onCancel: () => prompt(null) }} data-testid="pi-qty" />
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

      {location && (
        <Stack gap={4} data-testid="pi-lines">
          {lines.length > LINES_SHOWN && (
            <Text size="sm" data-testid="pi-lines-count">
              {t('{{n}} lines counted here; the newest {{shown}} are shown', { n: lines.length, shown: LINES_SHOWN })}
            </Text>
          )}
          {lines.slice(0, LINES_SHOWN).map((l) => (
            <Paper key={l.lineId} withBorder p="xs" data-testid="pi-line" data-stock={l.stockId ?? ''}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0}>
                  <Text size="sm" fw={600}>
                    {l.stockId ?? l.partNumber}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {[l.partNumber, l.description, l.lot, l.serial].filter(Boolean).join(' · ')}
                  </Text>
                </Stack>
                <Group gap={6} wrap="nowrap">
                  {l.found && <Badge color="grape">{t('found')}</Badge>}
                  {l.status === 'recount' && <Badge color="orange">{t('recount')}</Badge>}
                  {prefs.syscm && l.expected !== undefined && (
                    <Text size="sm" c="dimmed" data-testid="pi-expected">
                      {t('exp. {{qty}}', { qty: showQty(l.expected) })}
                    </Text>
                  )}
                  <Text fw={700} data-testid="pi-my-count">
                    {l.myCount === null ? '—' : showQty(l.myCount)}
                  </Text>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}

      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Switch label={t('Show the system quantity (sheets that are not blind)')} checked={prefs.syscm} onChange={(e) => setPrefs({ syscm: e.currentTarget.checked })} size="md" data-testid="pi-syscm" />
          <Switch label={t('Accept a serial counted above 1 (flagged for review)')} checked={prefs.allowSwsgt1} onChange={(e) => setPrefs({ allowSwsgt1: e.currentTarget.checked })} size="md" data-testid="pi-swsgt1" />
          {canPost && (
            <Switch label={t('Post each count at once')} checked={prefs.adjustWithCount} onChange={(e) => setPrefs({ adjustWithCount: e.currentTarget.checked })} size="md" data-testid="pi-adjust-with-count" />
          )}
        </Stack>
      </Paper>
      {s?.state === 'counting' && (
        <Button color="orange" onClick={() => void onSubmitSheet()} loading={submit.isPending} data-testid="pi-submit">
          {t('Counting done: send to review')}
        </Button>
      )}
      {s?.state === 'review' && <Alert color="orange">{t('In review: only lines due for a recount can be counted.')}</Alert>}
    </Stack>
  );
}
