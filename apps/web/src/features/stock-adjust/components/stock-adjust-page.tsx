import { useEffect, useRef, useState } from 'react';
import { Alert, Divider, Grid, Group, Loader, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { BlindNotices } from '../../../components/ui/blind-notice.tsx';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconInfoCircle } from '@tabler/icons-react';
import type { CallResponse } from '@floorhand/contract/api';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { MovementHistory } from '../../../components/ui/movement-history.tsx';
import { MruChips } from '../../../components/ui/mru-chips.tsx';
import { StockRecordSummary } from '../../../components/ui/stock-record-summary.tsx';
import { ApiError } from '../../../lib/api.ts';
import { isUnreachable } from '@floorhand/contract/offline';
import { onReplayed, useOutbox } from '../../../lib/offline/outbox.ts';
import type { OutboxItem } from '../../../lib/offline/replay.ts';
import { isDefinite, useAttempts } from '../../../lib/attempts.ts';
import { stockQuery, useStockChangedRefresh, useWarehouses } from '../../../lib/inventory-api.ts';
import { useStockAdjustSettings } from '../api/get-stock-adjust-settings.ts';
import { showQty } from '../../../lib/inventory-format.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { useNarrow } from '../../../lib/use-narrow.ts';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { readFeedback, refuseScan } from '../../../lib/scanning/feedback.ts';
import { openScanner } from '../../../lib/scanning/scanner-store.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { useAdjustStock, useMoveStock, useSplitStock } from '../api/change-stock.ts';
import { useFindStock } from '../api/find-stock.ts';
import { ADJUST_TYPES, useStockAdjustPrefs, type AdjustType } from '../hooks/use-stock-adjust-prefs.ts';
import { printOrDownload } from '../../../lib/label-printing.ts';
import { AdjustForm, type AdjustRequest } from './adjust-form.tsx';
import { ChangeResult, type ChangeOutcome } from './change-result.tsx';
import { MoveForm, type MoveRequest } from './move-form.tsx';
import { PrintLabelButton, PrintLabelPrefs } from './print-label.tsx';
import { SplitForm, type SplitRequest } from './split-form.tsx';
import { waitingChange } from '../utils/waiting-change.ts';
import { useChangeGuards } from '../hooks/use-change-guards.ts';
import { QueuedChange } from './queued-change.tsx';
import { StockCandidates } from './stock-candidates.tsx';
import { adjustScanMeaning, isTyped, proposedQty, type QtyField } from '../utils/scan-meaning.ts';

const MRU_KEY = 'stockAdjust';
type StockChange = CallResponse<'stock/adjust'>;
type SentChange = { queued: false; res: StockChange } | { queued: true; item: OutboxItem };

/**
 * Stock Adjust: open a stock record (path value, a scan, or a typed id), then adjust its quantity,
 * move it (all or part) or split it. Each change is confirmed, carries an idempotency key that is
 * kept for retries of the same change, and shows its result with the record's label.
 *
 * Scans (utils/scan-meaning.ts): a scan fills the move's destination while the page waits for one
 * (Move chosen, destination empty when the record opened, or the destination's camera button
 * pressed); otherwise it opens a record, unless a quantity typed in the chosen form is not confirmed
 * yet. The chosen form's quantity field is a prompt whenever a record opens or the action changes:
 * it takes the focus with its proposal selected, Enter confirms, Escape cancels.
 */
export function StockAdjustPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const narrow = useNarrow();
  const { lookupVal } = useParams({ strict: false }) as { lookupVal?: string };
  const value = (lookupVal ?? '').trim();
  const [prefs, setPrefs] = useStockAdjustPrefs();
  const settings = useStockAdjustSettings();
  const warehouses = useWarehouses();
  const features = useSessionStore((s) => s.featureAccess);
  const mru = useSessionStore((s) => s.mru[MRU_KEY]);
  const attempts = useAttempts();
  const adjust = useAdjustStock();
  const move = useMoveStock();
  const split = useSplitStock();
  const [destination, setDestination] = useState('');
  const [expectDest, setExpectDest] = useState(false);
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  const [qty, setQtyState] = useState<QtyField>({ text: '', proposed: '' });
  // Set at once, for the scan handler: a wedge burst that began in the quantity field typed into it,
  // and the router gives the field back what it held just before it publishes the scan, before React
  // renders that change.
  const qtyNow = useRef(qty);
  const setQty = (next: QtyField) => {
    qtyNow.current = next;
    setQtyState(next);
  };
  const typeQty = (text: string) => setQty({ ...qtyNow.current, text });
  useStockChangedRefresh();
  const { mayChange, destinationUsable } = useChangeGuards();

  const q = useQuery({ ...stockQuery(value), enabled: value !== '' });
  const stock = q.data?.stock;
  const waiting = useOutbox((s) => waitingChange(s.items, stock?.stockId));

  // A change this screen queued, once the outbox has replayed it (in this tab): its result as if it had just been made.
  useEffect(
    () =>
      onReplayed((item, answer) =>
        setOutcome((o) =>
          o?.queuedId === item.id
            ? { message: t('Sent: {{label}}', { label: item.label }), ...(answer as Pick<StockChange, 'stock' | 'newStock'>) }
            : o,
        ),
      ),
    [t],
  );
  // The server could not be reached: the record is not refused, only not read now (the cache, if any, is shown).
  const unreachable = q.error instanceof ApiError && isUnreachable(q.error.status);
  const missing = q.isError && !unreachable;
  const found = useFindStock(value, missing);
  const candidates = found.data?.records ?? [];

  const actions = ADJUST_TYPES.filter((a) => features?.[`stockAdjust.${a}`] !== false);
  const action: AdjustType | undefined = actions.includes(prefs.adjustType) ? prefs.adjustType : actions[0];

  // A newly opened record waits for its destination when Move is chosen and none is filled in, and
  // its chosen form's quantity prompt proposes afresh.
  const [opened, setOpened] = useState<string>();
  if (stock && stock.stockId !== opened) {
    setOpened(stock.stockId);
    setExpectDest(destination.trim() === '');
    if (action) setQty(proposedQty(action, prefs.deltaType === 'absolute', stock.quantity));
  }

  useEffect(() => {
    if (stock?.stockId) useSessionStore.getState().pushMru(MRU_KEY, stock.stockId);
  }, [stock?.stockId]);

  const open = (v: string) => {
    const next = v.trim();
    if (!next) return;
    setOutcome(null);
    if (next === value) void q.refetch();
    else void navigate({ href: `/stockAdjust/${encodeURIComponent(next)}`, replace: true });
  };

  // Not a stock id, but a lookup finds exactly one record (a location holding one): open it.
  const only = missing && candidates.length === 1 ? candidates[0]!.stockId : undefined;
  useEffect(() => {
    if (only) void navigate({ href: `/stockAdjust/${encodeURIComponent(only)}`, replace: true });
  }, [only, navigate]);

  const waitsForDest = expectDest && action === 'move' && !waiting;
  useScans((scan) => {
    const text = scan.text.trim();
    if (!text) return;
    const state = stock
      ? { kind: 'record' as const, stockId: stock.stockId, waitsForDest, typed: isTyped(qtyNow.current) }
      : { kind: 'none' as const };
    const meaning = adjustScanMeaning(state, scan.source === 'input');
    if (meaning.kind === 'refused') {
      refuseScan(meaning, text);
      return;
    }
    readFeedback(scan);
    if (meaning.kind === 'destination') {
      setDestination(text);
      setExpectDest(false);
    } else open(text);
  });

  /** Escape in a quantity prompt: nothing typed, nothing awaited; the next scan opens a record. */
  const cancelQty = () => {
    setQty({ ...qtyNow.current, text: '' });
    setExpectDest(false);
    setTimeout(() => document.querySelector<HTMLInputElement>('[data-scan-field="stock"]')?.focus(), 0);
  };

  /**
   * Confirm, send with the attempt's key (or queue it when the server cannot be reached), show the
   * result. Resolves true when the change was made or queued.
   */
  async function change<B extends object>(
    kind: AdjustType,
    intent: B,
    confirm: { title: string; message: string; pos: string; label: string },
    send: (body: B & { stockId: string; _rev: number; idempotencyKey: string }, label: string) => Promise<SentChange>,
    done: (res: StockChange) => string,
  ): Promise<boolean> {
    if (!stock) return false;
    if (!(await mayChange(stock.stockId))) return false;
    const answer = await dialogs.confirm({
      type: 'question',
      title: confirm.title,
      message: confirm.message,
      neg: t('Cancel'),
      pos: confirm.pos,
      focus: 'pos',
    });
    if (answer !== 'pos') return false;
    const attempt = attempts.begin({ kind, stockId: stock.stockId, ...intent }, () => ({
      ...intent,
      stockId: stock.stockId,
      _rev: stock._rev,
    }));
    try {
      const sent = await send({ ...attempt.body, idempotencyKey: attempt.key }, confirm.label);
      attempts.settle();
      if (sent.queued) {
        // The worker goes on: the record shows the change as queued until the outbox has sent it.
        setOutcome({ message: sent.item.label, queuedId: sent.item.id });
        return true;
      }
      const res = sent.res;
      const message = done(res);
      notifications.show({ color: 'green', message });
      setOutcome({ message, stock: res.stock, newStock: res.newStock });
      // The print-label preferences: a label of the record the change made, or of the one it changed.
      const auto = kind === 'adjust' ? prefs.printOnAdjust : kind === 'move' ? prefs.printOnMove : prefs.printOnSplit;
      const labelled = res.newStock?.stockId ?? res.stock?.stockId;
      if (auto && labelled) void printOrDownload({ kind: 'stock', source: { stockIds: [labelled] }, auto: true }).catch(() => undefined);
      return true;
    } catch (e) {
      // A dropped answer keeps the attempt: pressing the button again re-sends the same request.
      if (!(e instanceof ApiError) || isDefinite(e.status)) attempts.settle();
      return false;
    }
  }

  const onAdjust = async (r: AdjustRequest) => {
    const ok = await change(
      'adjust',
      { deltaType: r.deltaType, qty: r.qty, reason: r.reason },
      {
        title: t('Adjust quantity'),
        message: t('{{stockId}}: {{before}} → {{after}}, reason {{reason}}', {
          stockId: stock!.stockId,
          before: showQty(stock!.quantity),
          after: showQty(r.after, stock!.uom),
          reason: r.reason,
        }),
        pos: t('Adjust'),
        label: t('Adjust {{stockId}} to {{qty}} ({{reason}})', {
          stockId: stock!.stockId,
          qty: showQty(r.after, stock!.uom),
          reason: r.reason,
        }),
      },
      (args, label) => adjust.mutateAsync({ args, label }),
      (res) => t('{{stockId}} adjusted to {{qty}}', { stockId: stock!.stockId, qty: showQty(res.stock?.quantity ?? r.after, stock!.uom) }),
    );
    if (ok) setPrefs({ reason: r.reason });
    return ok;
  };

  const onMove = async (r: MoveRequest) => {
    const from = `${stock!.warehouse} / ${stock!.location}`;
    const to = `${r.toWarehouse} / ${r.toLocation}`;
    // An unknown destination is said before the confirmation, not after it.
    if (!(await destinationUsable(r.toWarehouse, r.toLocation))) return false;
    const ok = await change(
      'move',
      { toWarehouse: r.toWarehouse, toLocation: r.toLocation, ...(r.qty ? { qty: r.qty } : {}) },
      {
        title: t('Move stock'),
        message: r.whole
          ? t('Move {{stockId}} ({{qty}}) from {{from}} to {{to}}?', {
              stockId: stock!.stockId,
              qty: showQty(r.moved, stock!.uom),
              from,
              to,
            })
          : t('Move {{qty}} of {{stockId}} from {{from}} to {{to}}? They become a new stock record.', {
              stockId: stock!.stockId,
              qty: showQty(r.moved, stock!.uom),
              from,
              to,
            }),
        pos: t('Move'),
        label: r.whole
          ? t('Move {{stockId}} to {{to}}', { stockId: stock!.stockId, to })
          : t('Move {{qty}} of {{stockId}} to {{to}}', { stockId: stock!.stockId, qty: showQty(r.moved, stock!.uom), to }),
      },
      (args, label) => move.mutateAsync({ args, label }),
      (res) =>
        res.newStock
          ? t('{{qty}} moved to {{to}} as {{newId}}', {
              qty: showQty(res.newStock.quantity, res.newStock.uom),
              to,
              newId: res.newStock.stockId,
            })
          : t('{{stockId}} moved to {{to}}', { stockId: stock!.stockId, to }),
    );
    if (ok) {
      // The next scan is the next record; with clearDstLoc it gets a fresh destination.
      if (settings.data?.clearDstLoc ?? true) setDestination('');
      setExpectDest(false);
    }
    return ok;
  };

  const onSplit = (r: SplitRequest) =>
    change(
      'split',
      { qty: r.qty },
      {
        title: t('Split stock'),
        message: t('Split {{qty}} off {{stockId}} into a new stock record? {{left}} stay on {{stockId}}.', {
          qty: showQty(Number(r.qty), stock!.uom),
          stockId: stock!.stockId,
          left: showQty(r.remaining, stock!.uom),
        }),
        pos: t('Split'),
        label: t('Split {{qty}} off {{stockId}}', { qty: showQty(Number(r.qty), stock!.uom), stockId: stock!.stockId }),
      },
      (args, label) => split.mutateAsync({ args, label }),
      (res) =>
        t('{{newId}} split off {{stockId}} with {{qty}}', {
          newId: res.newStock?.stockId ?? '',
          stockId: stock!.stockId,
          qty: showQty(res.newStock?.quantity ?? Number(r.qty), stock!.uom),
        }),
    );

  const ACTION_LABELS: Record<AdjustType, string> = { adjust: t('Adjust'), move: t('Move'), split: t('Split') };

  const actionPanel = stock && action && (
    <Paper withBorder p="sm">
      {waiting ? (
        <QueuedChange item={waiting} />
      ) : (
        <Stack gap="sm">
          <SegmentedControl
            fullWidth
            size="md"
            value={action}
            onChange={(v) => {
              setPrefs({ adjustType: v as AdjustType });
              setQty(proposedQty(v as AdjustType, prefs.deltaType === 'absolute', stock.quantity));
              if (v === 'move' && !destination.trim()) setExpectDest(true);
            }}
            data={actions.map((a) => ({ value: a, label: ACTION_LABELS[a] }))}
            data-testid="adjust-action"
          />
          {action === 'adjust' && (
            <AdjustForm
              key={stock.stockId}
              stock={stock}
              reasons={settings.data?.reasons ?? []}
              deltaType={prefs.deltaType}
              onDeltaType={(deltaType) => {
                setPrefs({ deltaType });
                // Set to proposes the record's quantity, add and remove nothing; a typed quantity stays.
                if (!isTyped(qtyNow.current)) setQty(proposedQty('adjust', deltaType === 'absolute', stock.quantity));
              }}
              lastReason={prefs.reason}
              qty={qty}
              onQtyText={typeQty}
              onCancel={cancelQty}
              busy={adjust.isPending}
              onSubmit={onAdjust}
            />
          )}
          {action === 'move' && (
            <>
              {expectDest && (
                <Text size="sm" c="blue" data-testid="expect-dest">
                  {t('Scan the destination location')}
                </Text>
              )}
              <MoveForm
                key={stock.stockId}
                stock={stock}
                warehouses={warehouses.data ?? []}
                destination={destination}
                onDestination={setDestination}
                onScanDestination={() => {
                  setExpectDest(true);
                  openScanner();
                }}
                qty={qty}
                onQtyText={typeQty}
                onCancel={cancelQty}
                busy={move.isPending}
                onSubmit={onMove}
              />
            </>
          )}
          {action === 'split' && (
            <SplitForm
              key={stock.stockId}
              stock={stock}
              qty={qty}
              onQtyText={typeQty}
              onCancel={cancelQty}
              busy={split.isPending}
              onSubmit={onSplit}
            />
          )}
        </Stack>
      )}
    </Paper>
  );

  return (
    <Stack gap="sm" maw={1400}>
      <ScanInput
        label={t('Stock id')}
        placeholder={t('Scan a stock label or type its id')}
        data-testid="adjust-lookup-input"
        data-scan-field="stock"
        autoFocus={!value}
      />
      <MruChips values={mru ?? []} onPick={open} testId="adjust-mru" />

      {!value && (
        <Alert icon={<IconInfoCircle />} color="dark" data-testid="adjust-empty">
          {t('Scan a stock label or type a stock id to adjust, move or split the record.')}
        </Alert>
      )}
      {value && q.isPending && <Loader />}

      {/* Stock the user counts blind: the server withholds it (docs/physical-inventory.md, Blind counts everywhere). */}
      {unreachable && !stock && (
        <Alert color="orange" title={t('The server cannot be reached')} data-testid="adjust-unreachable">
          {t("'{{value}}' cannot be looked up now. Scan it again when the connection returns.", { value })}
        </Alert>
      )}
      {missing && !found.isPending && candidates.length === 0 && found.data && (
        <BlindNotices places={found.data.blind} testId="adjust-blind" />
      )}

      {missing && !found.isPending && candidates.length !== 1 && !(candidates.length === 0 && found.data?.blind.length) && (
        <StockCandidates value={value} candidates={candidates} more={!!found.data?.more} onOpen={open} />
      )}

      {stock && (
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack gap="sm">
              <Paper withBorder p="sm">
                <StockRecordSummary stock={stock} />
                <Group mt="xs">
                  <PrintLabelButton stockId={stock.stockId} testId="print-stock-label" />
                </Group>
              </Paper>
              {!action && <Alert color="dark">{t('Your roles may look at stock records here but not change them.')}</Alert>}
              {narrow && actionPanel}
              {outcome && <ChangeResult outcome={outcome} onOpen={open} />}
              <PrintLabelPrefs prefs={prefs} onChange={setPrefs} />
            </Stack>
          </Grid.Col>
          {!narrow && <Grid.Col span={{ base: 12, md: 6 }}>{actionPanel}</Grid.Col>}
          <Grid.Col span={12}>
            <Divider
              label={
                <Title order={2} size="h4">
                  {t('Movements')}
                </Title>
              }
              labelPosition="left"
            />
            <MovementHistory movements={q.data?.movements ?? []} more={q.data?.moreMovements} />
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
