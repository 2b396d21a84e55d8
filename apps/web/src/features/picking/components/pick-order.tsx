import { useEffect, useMemo, useState, type CSSProperties } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconInfoCircle } from '@tabler/icons-react';
import type { CallResponse } from '@floorhand/contract/api';
import { ERR, type ServerErr } from '@floorhand/contract/errors';
import { isUnreachable } from '@floorhand/contract/offline';
import { qtyNumber } from '@floorhand/contract/quantity';
import type { OrderHeader, PickLine } from '@floorhand/contract/orders';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';
import { FetchedAt } from '../../../components/ui/fetched-at.tsx';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { NeedsServer, useOnline } from '../../../components/offline/queued-mark.tsx';
import { ApiError } from '../../../lib/api.ts';
import { getLocation } from '../api/get-location.ts';
import { isDefinite, useAttempts } from '../../../lib/attempts.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { onReplayed, sendOrQueue, useOutbox } from '../../../lib/offline/outbox.ts';
import type { OutboxItem } from '../../../lib/offline/replay.ts';
import { printOrDownload } from '../../../lib/label-printing.ts';
import { readQtyInput, showQty } from '../../../lib/inventory-format.ts';
import { readFeedback, refuseScan } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { NO_LINE, pickScanMeaning, type NoLine, type PickStep as Step } from '../utils/scan-meaning.ts';
import { PICK_REFUSALS, usePickCall } from '../api/change-pick.ts';
import { pickingKeys } from '../api/keys.ts';
import { travellerOf } from '../api/get-traveller.ts';
import { withQueued } from '../utils/queued-picks.ts';
import { useStockPickPrefs } from '../hooks/use-pick-prefs.ts';
import { LineSources, OrderTitle, PickedList, PickPrintPrefs, QueuedNotes, ShortForm } from './pick-order-parts.tsx';

export interface PickOrderProps {
  order: OrderHeader;
  lines: PickLine[];
  /**
   * When the lines were read (ms): shown while offline (the answer is the cache's); picks replayed
   * from the outbox since then still show until the refresh.
   */
  fetchedAt?: number;
  onBack(): void;
}

const bad = (message: string): ServerErr => ({ code: ERR.badInput, message });

/**
 * One order being picked: its current line (walk order, the first open one the picker may take), then
 * scan the location, scan the stock label (or the item where the location holds one record of it),
 * confirm the quantity. Every refusal is the spec's error dialog; when it closes the scan field has
 * the focus again and nothing has changed.
 */
export function PickOrder({ order, lines: fetched, fetchedAt = 0, onBack }: PickOrderProps) {
  const { t } = useTranslation();
  // The session's user: on a kiosk, the worker whose badge opened it (not the kiosk account).
  const me = useSessionStore((s) => s.user?.id);
  const [step, setStep] = useState<Step>({ kind: 'location' });
  const [qty, setQty] = useState('');
  const [shortReason, setShortReason] = useState<string | null>(null);
  const attempts = useAttempts();
  const claim = usePickCall('pick/claim');
  const release = usePickCall('pick/release');
  const qc = useQueryClient();
  const online = useOnline();
  const [busy, setBusy] = useState(false);
  const unpick = usePickCall('pick/unpick');
  const report = usePickCall('pick/reportDiscrepancy');
  const [prefs, setPrefs] = useStockPickPrefs();
  const userName = useSessionStore((s) => (s.user ? `${s.user.firstName} ${s.user.surnames}`.trim() : ''));

  /** Labels printed automatically (the preferences): to this device's printer; none without one. */
  const autoPrint = (req: Parameters<typeof printOrDownload>[0]) => void printOrDownload({ ...req, auto: true }).catch(() => undefined);
  const printTraveller = () =>
    void travellerOf(order).then(
      (source) => autoPrint({ kind: 'orderTraveller', source }),
      () => undefined,
    );
  async function take(lineIds?: string[]) {
    const done = await send(() => claim.mutateAsync({ orderId: order._id, ...(lineIds ? { lineIds } : {}) }));
    if (done && !lineIds && prefs.printOnAssign) printTraveller();
  }

  // Picks, shorts and skips waiting in the device's outbox (issue 27) are shown as made: the picker
  // goes on to the next line. Taken from the outbox by id, so one the server refuses opens its line
  // again; one replayed stays until the lines are read again.
  const outbox = useOutbox((s) => s.items);
  const [replayed, setReplayed] = useState<Array<{ item: OutboxItem; at: number }>>([]);
  useEffect(() => onReplayed((item) => setReplayed((r) => [...r.filter((x) => Date.now() - x.at < 60_000), { item, at: Date.now() }])), []);
  const view = useMemo(() => {
    const pending = new Map(outbox.map((i) => [i.id, i]));
    for (const r of replayed) if (r.at > fetchedAt && !pending.has(r.item.id)) pending.set(r.item.id, r.item);
    return withQueued(fetched, [...pending.values()]);
  }, [fetched, outbox, replayed, fetchedAt]);
  const lines = view.lines;
  const queuedIds = new Set(view.queued.map((q) => q.id));
  const queuedNotes = view.queued.filter((q) => q.kind !== 'pick');
  /** The picking and inventory screens read again after a write the server took. */
  const refresh = () =>
    void Promise.all([qc.invalidateQueries({ queryKey: pickingKeys.all }), qc.invalidateQueries({ queryKey: ['inventory'] })]);

  const heldByOther = !!order.claimedBy && order.claimedBy.id !== me;
  const mayPick = (l: PickLine) => l.status === 'open' && (l.claimedBy ? l.claimedBy.id === me : !heldByOther);
  const line = lines.find(mayPick);
  const openLines = lines.filter((l) => l.status === 'open');
  const freeLine = openLines.find((l) => !l.claimedBy);
  const noLine: NoLine | undefined = line ? undefined : openLines.length === 0 ? 'picked' : 'held';
  const open = line ? line.qty - line.picked - line.short : 0;
  const picks = lines.flatMap((l) => l.picks.map((p) => ({ ...p, partNumber: l.partNumber, uom: l.uom })));

  const focusScan = () => setTimeout(() => document.querySelector<HTMLInputElement>('[data-scan-field="pick"]')?.focus(), 0);
  /** The spec's error dialog, awaited, then the scan field ready for the next scan. */
  const refuse = async (err: ServerErr) => {
    await dialogs.error(err);
    focusScan();
  };
  /** Runs a write; a refusal is shown and answers undefined. */
  async function send<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (e) {
      if (e instanceof ApiError && PICK_REFUSALS.test(e.err.code)) await refuse(e.err);
      else focusScan();
      return undefined;
    }
  }
  const restart = () => {
    setStep({ kind: 'location' });
    setQty('');
    setShortReason(null);
    focusScan();
  };

  async function onLocation(code: string) {
    if (!line) return;
    if (line.sources.some((s) => s.location === code)) {
      setStep({ kind: 'stock', location: code });
      return;
    }
    // Not where the line's stock is: say why (unknown, inactive, or no stock of the item there). Without
    // the server the order's lines as read tell enough: the line has no stock there, refused all the same.
    const noStock = bad(t("There is no stock of '{{part}}' to pick in '{{code}}'.", { part: line.partNumber, code }));
    if (!online) return void (await refuse(noStock));
    try {
      const { location } = await getLocation(order.warehouse, code);
      if (location && !location.active) await refuse(bad(t("The location '{{code}}' is inactive.", { code })));
      else await refuse(noStock);
    } catch (e) {
      if (e instanceof ApiError)
        await refuse(
          isUnreachable(e.status)
            ? noStock
            : e.status === 404
              ? bad(t("There is no location '{{code}}' in warehouse '{{warehouse}}'.", { code, warehouse: order.warehouse }))
              : e.err,
        );
    }
  }

  async function onStock(location: string, text: string) {
    if (!line) return;
    const here = line.sources.filter((s) => s.location === location);
    const known = line.sources.find((s) => s.stockId === text);
    if (known && known.location !== location) {
      await refuse(
        bad(t("The stock '{{stockId}}' is in '{{other}}', not in '{{code}}'.", { stockId: text, other: known.location, code: location })),
      );
      return;
    }
    if (!known && text === line.partNumber && here.length > 1) {
      await refuse(
        bad(t("'{{code}}' holds more than one record of '{{part}}': scan the stock label.", { code: location, part: line.partNumber })),
      );
      return;
    }
    const record = known ?? (here.length === 1 ? here[0] : undefined);
    const proposed = line.tracking === 'serial' ? 1 : Math.min(open, record?.quantity ?? open);
    setQty(String(proposed));
    setStep({ kind: 'qty', location, scan: text });
  }

  useScans((scan) => {
    const text = scan.text.trim();
    if (!text) return;
    const meaning = pickScanMeaning(step, text, noLine);
    if (meaning.kind !== 'refused') readFeedback(scan);
    if (meaning.kind === 'location') void onLocation(text);
    else if (meaning.kind === 'stock') void onStock(meaning.location, text);
    else refuseScan(meaning, text);
  });

  async function onConfirm() {
    if (!line || step.kind !== 'qty') return;
    const read = readQtyInput(qty);
    if (!read.ok || read.units <= 0n) {
      await refuse(bad(t('The quantity to pick must be a number greater than 0.')));
      return;
    }
    const intent = { lineId: line._id, location: step.location, scan: step.scan, qty: qty.trim() };
    const attempt = attempts.begin(intent, () => intent);
    let res: CallResponse<'pick/confirm'>;
    setBusy(true);
    try {
      // The same key into the outbox when the server cannot be reached: a lost request that did arrive is answered once.
      const label = t('Pick {{qty}} of {{part}} from {{code}} for {{order}}', {
        qty: showQty(qtyNumber(read.units), line.uom),
        part: line.partNumber,
        code: step.location,
        order: order.number,
      });
      const sent = await sendOrQueue('pick/confirm', { ...attempt.body, idempotencyKey: attempt.key }, { label, suppress: PICK_REFUSALS });
      attempts.settle();
      // Queued: the line shows as picked (its row marked Queued) and the next one comes up.
      if (sent.queued) {
        restart();
        return;
      }
      res = sent.res;
      refresh();
    } catch (e) {
      // A dropped answer keeps the attempt: confirming again re-sends the same pick.
      if (!(e instanceof ApiError) || isDefinite(e.status)) attempts.settle();
      if (e instanceof ApiError && PICK_REFUSALS.test(e.err.code)) await refuse(e.err);
      refresh();
      setStep({ kind: 'stock', location: step.location });
      focusScan();
      return;
    } finally {
      setBusy(false);
    }
    if (prefs.printOnPick && res.pick) {
      const p = res.pick;
      autoPrint({
        kind: 'pick',
        source: {
          rows: [
            {
              orderId: order.number,
              orderType: order.type,
              line: String(line.lineNo),
              stockId: p.stockId,
              partNumber: line.partNumber,
              description: line.description,
              location: p.toLocation,
              qty: String(p.qty),
              uom: line.uom,
              picker: userName,
            },
          ],
        },
      });
    }
    notifications.show({
      color: 'green',
      message: t('Picked {{qty}} of {{part}} from {{code}}', {
        qty: showQty(res.pick?.qty ?? 0, line.uom),
        part: line.partNumber,
        code: step.location,
      }),
    });
    if (res.locationEmpty) await afterEmptied(line, step.location, res.line);
    restart();
  }

  /**
   * A pick emptied the location: the picker says whether it is. No asks for a count of it (the
   * supervisors see the request in the count sheet list). When the line still wants more and no
   * other place holds its item, the rest may be closed short right here instead of meeting
   * "No stock" on the next walk.
   */
  async function afterEmptied(picked: PickLine, code: string, after: CallResponse<'pick/confirm'>['line']) {
    const answer = await dialogs.confirm({
      type: 'question',
      title: t('Location empty?'),
      message: t("'{{code}}' should be empty now. Is it?", { code }),
      neg: t('No'),
      pos: t('Yes, empty'),
      focus: 'pos',
    });
    let sheet: string | undefined;
    if (answer === 'neg') {
      const asked = await send(() => report.mutateAsync({ idempotencyKey: crypto.randomUUID(), lineId: picked._id, location: code }));
      if (asked?.sheet) {
        sheet = asked.sheet.code;
        notifications.show({
          color: 'yellow',
          message: asked.created ? t('Count requested: {{sheet}}', { sheet }) : t('Count requested already: {{sheet}}', { sheet }),
          'data-testid': 'pick-count-requested',
        } as Parameters<typeof notifications.show>[0]);
      }
    }
    const rest = after ? after.qty - after.picked - after.short : 0;
    const elsewhere = picked.sources.some((s) => s.location !== code);
    if (!after || after.status !== 'open' || rest <= 0 || elsewhere) return;
    const shortRest = await dialogs.confirm({
      type: 'question',
      title: t('No more stock of {{part}}', { part: picked.partNumber }),
      message: t('{{qty}} of line {{no}} are still to pick and no other location holds {{part}}. Short the rest?', {
        qty: showQty(rest, picked.uom),
        no: picked.lineNo,
        part: picked.partNumber,
      }),
      neg: t('Not now'),
      pos: t('Short the rest'),
      focus: 'pos',
    });
    if (shortRest !== 'pos') return;
    const reason = sheet
      ? t('{{code}} emptied; count {{sheet}} requested', { code, sheet })
      : t('{{code}} emptied, no other stock', { code });
    await shortLine(picked, reason);
  }

  async function onShort() {
    if (!line || !shortReason?.trim()) return;
    await shortLine(line, shortReason.trim());
    restart();
  }

  /** pick/short of a line with a reason (queued when the server cannot be reached), and a notice of what became of the rest. */
  async function shortLine(line: PickLine, reason: string) {
    const label = t('Short line {{no}} of {{order}}: {{reason}}', { no: line.lineNo, order: order.number, reason });
    const sent = await send(() =>
      sendOrQueue('pick/short', { idempotencyKey: crypto.randomUUID(), lineId: line._id, reason }, { label, suppress: PICK_REFUSALS }),
    );
    if (sent?.queued) return;
    refresh();
    const done = sent?.res;
    if (done?.backorder) {
      notifications.show({
        color: 'yellow',
        message: t('Line {{no}} closed short: {{qty}} on backorder {{number}}', {
          no: line.lineNo,
          qty: showQty(done.backorder.qty, line.uom),
          number: done.backorder.number,
        }),
      });
    } else if (done?.line?.status === 'open') {
      notifications.show({ color: 'yellow', message: t('Line {{no}} stays open, walked last', { no: line.lineNo }) });
    } else if (done) {
      notifications.show({ color: 'yellow', message: t('Line {{no}} closed short', { no: line.lineNo }) });
    }
  }

  const stepText =
    step.kind === 'location'
      ? t('Scan the location')
      : step.kind === 'stock'
        ? t('Scan the stock label in {{code}}', { code: step.location })
        : t('Confirm the quantity');

  return (
    <Stack gap="sm" maw={900}>
      <OrderTitle order={order} onBack={onBack} />
      <Group gap="xs">
        {order.claimedBy ? (
          <Badge color={heldByOther ? 'gray.7' : 'dark'} variant={heldByOther ? 'filled' : 'outline'} size="lg" data-testid="pick-holder">
            {heldByOther ? t('Picking: {{name}}', { name: order.claimedBy.name }) : t('Picking: you')}
          </Badge>
        ) : (
          <Button size="md" onClick={() => void take()} disabled={!online} data-testid="pick-take">
            {t('Take order')}
          </Button>
        )}
        {heldByOther && !line && freeLine && (
          <Button size="md" onClick={() => void take([freeLine._id])} disabled={!online} data-testid="pick-take-line">
            {t('Take line {{no}}', { no: freeLine.lineNo })}
          </Button>
        )}
        {order.claimedBy?.id === me && (
          <Button
            size="md"
            variant="default"
            onClick={() => void send(() => release.mutateAsync({ orderId: order._id }))}
            disabled={!online}
            data-testid="pick-release"
          >
            {t('Release')}
          </Button>
        )}
        <FetchedAt at={fetchedAt} />
      </Group>
      {/* Picks, shorts and skips go on offline (the outbox); taking, releasing and returning need the server. */}
      {!online && (
        <NeedsServer testId="pick-needs-server">
          {t('Needs the server: take, release or return when back online. Picks, shorts and skips are queued.')}
        </NeedsServer>
      )}

      <ScanInput label={stepText} data-testid="pick-scan" data-scan-field="pick" autoFocus />

      {noLine && (
        <Alert icon={<IconInfoCircle />} color="dark" data-testid="pick-no-line">
          {t(NO_LINE[noLine])}
        </Alert>
      )}

      <QueuedNotes notes={queuedNotes} />

      {line && (
        <Paper
          withBorder
          p="sm"
          data-testid="pick-line"
          data-line={line.lineNo}
          style={{ '--pick-location-size': 'calc(1.5rem * var(--mantine-scale))' } as CSSProperties}
        >
          <Stack gap={6}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={700} ff="monospace" truncate data-testid="pick-line-part">
                {line.partNumber}
              </Text>
              <Text fw={700} data-testid="pick-line-open">
                {showQty(open, line.uom)}
              </Text>
            </Group>
            <Text size="sm" truncate>
              {t('Line {{no}} · {{description}}', { no: line.lineNo, description: line.description })}
              {line.claimedBy && line.claimedBy.id !== me ? ` · ${line.claimedBy.name}` : ''}
            </Text>
            <LineSources sources={line.sources} />
            {step.kind === 'qty' && (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  void onConfirm();
                }}
              >
                <Stack gap="xs">
                  <QuantityInput
                    label={t('Quantity to pick')}
                    value={qty}
                    onChange={setQty}
                    uom={line.uom}
                    prompt={{
                      onCancel: () => {
                        // The label may be scanned again at once: the Escape or the tap that cancelled was a person's, so not a bounce.
                        setStep({ kind: 'stock', location: step.location });
                        focusScan();
                      },
                    }}
                    data-testid="pick-qty"
                  />
                  <Button type="submit" size="md" loading={busy} data-testid="pick-confirm">
                    {t('Confirm pick')}
                  </Button>
                </Stack>
              </form>
            )}
            {shortReason !== null ? (
              <ShortForm reason={shortReason} onReason={setShortReason} onSubmit={() => void onShort()} onCancel={restart} />
            ) : (
              <Group grow>
                <Button size="md" variant="default" onClick={() => setShortReason('')} data-testid="pick-short">
                  {t('Short')}
                </Button>
                <Button
                  size="md"
                  variant="default"
                  onClick={async () => {
                    const label = t('Skip line {{no}} of {{order}}', { no: line.lineNo, order: order.number });
                    const sent = await send(() =>
                      sendOrQueue(
                        'pick/skip',
                        { idempotencyKey: crypto.randomUUID(), lineId: line._id },
                        { label, suppress: PICK_REFUSALS },
                      ),
                    );
                    if (!sent?.queued) refresh();
                    restart();
                  }}
                  data-testid="pick-skip"
                >
                  {t('Skip')}
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      )}

      <PickedList
        picks={picks}
        queuedIds={queuedIds}
        online={online}
        onReturn={(p) =>
          void send(() => unpick.mutateAsync({ idempotencyKey: crypto.randomUUID(), pickId: p._id, toLocation: p.fromLocation }))
        }
      />
      {/* Labels printed by themselves (preferences), below the work: the scan field stays on the first screen. */}
      <PickPrintPrefs prefs={prefs} setPrefs={setPrefs} />
    </Stack>
  );
}
