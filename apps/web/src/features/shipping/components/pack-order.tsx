import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ERR } from '@floorhand/contract/errors';
import { PRODUCTION_ORDER_TYPES, type OrderHeader } from '@floorhand/contract/orders';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { NeedsServer, QueuedBadge, useOnline } from '../../../components/offline/queued-mark.tsx';
import { ApiError } from '../../../lib/api.ts';
import { onReplayed, sendOrQueue, useOutbox } from '../../../lib/offline/outbox.ts';
import type { OutboxItem } from '../../../lib/offline/replay.ts';
import { readFeedback, refuseScan } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { printPackingList } from './packing-list-button.tsx';
import { SHIP_REFUSALS, useShipCall } from '../api/change-shipment.ts';
import { shipOrderQuery } from '../api/get-ship-order.ts';
import { shippingKeys } from '../api/keys.ts';
import { withQueuedPacks } from '../utils/queued-packs.ts';
import { useStockPackPrefs } from '../hooks/use-pack-prefs.ts';
import { createOneAtATime } from '../utils/one-at-a-time.ts';
import { packScanMeaning } from '../utils/scan-meaning.ts';
import { PackageCard, type WeightPrompt } from './package-card.tsx';
import { StagedLine } from './staged-line.tsx';

export function PackOrder({ number, onBack, onOpen }: { number: string; onBack(): void; onOpen(number: string): void }) {
  const { t } = useTranslation();
  const q = useQuery(shipOrderQuery(number));
  const [chosen, setChosen] = useState<string | null>(null);
  const save = useShipCall('package/save');
  const ship = useShipCall('ship/confirm');
  const issue = useShipCall('order/issue');
  const [prefs, setPrefs] = useStockPackPrefs();
  const qc = useQueryClient();
  const online = useOnline();
  const order = q.data?.order;
  // Packs and unpacks waiting in the device's outbox (issue 27) show as made, taken from the outbox by
  // id (a refused one is undone here); one replayed stays until the order is read again.
  const outbox = useOutbox((s) => s.items);
  const [replayed, setReplayed] = useState<Array<{ item: OutboxItem; at: number }>>([]);
  useEffect(() => onReplayed((item) => setReplayed((r) => [...r.filter((x) => Date.now() - x.at < 60_000), { item, at: Date.now() }])), []);
  const view = useMemo(() => {
    const pending = new Map(outbox.map((i) => [i.id, i]));
    for (const r of replayed) if (r.at > q.dataUpdatedAt && !pending.has(r.item.id)) pending.set(r.item.id, r.item);
    return withQueuedPacks(q.data?.staged ?? [], q.data?.packages ?? [], [...pending.values()]);
  }, [q.data, q.dataUpdatedAt, outbox, replayed]);
  const { packages, staged } = view;
  const queuedStock = new Set(view.queued.filter((x) => x.known).map((x) => x.stockId));
  const toCheck = view.queued.filter((x) => !x.known);
  const refresh = () =>
    void Promise.all([qc.invalidateQueries({ queryKey: shippingKeys.all }), qc.invalidateQueries({ queryKey: ['inventory'] })]);
  /** package/pack or package/unpack, through the outbox: queued when the server cannot be reached. */
  const packWrite = async (path: 'package/pack' | 'package/unpack', packageId: string, stockId: string) => {
    const no = packages.find((p) => p._id === packageId)?.packageNo ?? '';
    const label =
      path === 'package/pack'
        ? t('Pack {{stockId}} into {{package}}', { stockId, package: no })
        : t('Unpack {{stockId}} from {{package}}', { stockId, package: no });
    const sent = await sendOrQueue(path, { idempotencyKey: crypto.randomUUID(), packageId, stockId }, { label, suppress: SHIP_REFUSALS });
    if (!sent.queued) refresh();
    return sent;
  };
  const openPackages = packages.filter((p) => p.status === 'open');
  const current = openPackages.find((p) => p._id === chosen) ?? openPackages[openPackages.length - 1];
  const production = !!order && PRODUCTION_ORDER_TYPES.has(order.type);
  // Every package shipped and no picked stock outside one: no New package, a scan is refused (more picked later opens it again).
  const shipped = packages.length > 0 && openPackages.length === 0 && !staged.some((s) => s.state === 'picked' && !s.packageId);
  // The one package whose Weight is the prompt (docs/scanning.md), if any; a new `n` opens it again.
  const [weighing, setWeighing] = useState<WeightPrompt | null>(null);
  // New package on its way to the server: scans wait for it (a packer taps New package and scans at
  // once), then go into it, instead of "Start a package first" for a package already being started.
  const [starting, setStarting] = useState(false);
  const promptWeight = (packageId: string, why: WeightPrompt['why']) => setWeighing((w) => ({ packageId, why, n: (w?.n ?? 0) + 1 }));

  // Every write of this screen (scans, saves, ships) waits for the one before it: a Ship clicked while
  // the package's Save is on its way ships the saved package (docs/orders.md, "One write at a time").
  const [oneAtATime] = useState(createOneAtATime);
  // Each package card's "save what the form holds, if the server does not have it yet", run before a ship.
  const flushers = useRef(new Map<string, () => Promise<void>>());
  const focusScan = () => setTimeout(() => document.querySelector<HTMLInputElement>('[data-scan-field="pack"]')?.focus(), 0);
  async function send<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await oneAtATime(run);
    } catch (e) {
      if (e instanceof ApiError && SHIP_REFUSALS.test(e.err.code)) await dialogs.error(e.err);
      focusScan();
      return undefined;
    }
  }

  // A ship confirmed (one package or the whole order): with the preference on, each shipped package's
  // packing list and label print, as the packing-list button does; without a printer only a notice
  // says the label was not printed. Printing never holds up the next write.
  const shipAndPrint = async (args: { idempotencyKey: string; orderId: string; packageId?: string }) => {
    const res = await ship.mutateAsync(args);
    if (prefs.printOnShip && order) {
      for (const p of res.packages ?? []) void printPackingList(order, p, p.stockIds.length, true).catch(() => undefined);
    }
    return res;
  };

  useScans(
    (scan) => {
      const text = scan.text.trim();
      if (!text) return;
      const meaning = packScanMeaning(order ? { production, packageId: current?._id ?? null, shipped } : null, number, text);
      if (meaning.kind === 'refused') return refuseScan(meaning, text);
      // On "No order": the scan is the order meant, as on the board.
      if (meaning.kind === 'order') {
        readFeedback(scan);
        return onOpen(meaning.number);
      }
      // Without the server, the order's stock as read still tells a record packed already.
      const packedIn = !online && packages.find((p) => p.stockIds.includes(text));
      if (packedIn) {
        void dialogs
          .error({
            code: ERR.badInput,
            message: t("The stock '{{stockId}}' is packed already in '{{package}}'.", { stockId: text, package: packedIn.packageNo }),
          })
          .then(focusScan);
        return;
      }
      readFeedback(scan);
      void send(() => packWrite('package/pack', meaning.packageId, text));
    },
    { ready: !q.isPending && !starting },
  );

  if (q.isPending) return <Loader />;
  if (!order) {
    return (
      <Alert color="yellow" title={t("No order '{{number}}'", { number })} data-testid="ship-not-found">
        <Button variant="default" onClick={onBack}>
          {t('Orders')}
        </Button>
      </Alert>
    );
  }
  const unpacked = staged.filter((s) => s.state === 'picked' && !s.packageId);

  return (
    <Stack gap="sm" maw={1100}>
      <Header order={order} onBack={onBack} />
      {production ? (
        <Paper withBorder p="sm">
          <Stack gap="xs">
            <Text>{t('A {{type}} order is issued to production, not shipped.', { type: order.type.toUpperCase() })}</Text>
            <Button
              size="md"
              disabled={!online || !staged.some((s) => s.state === 'picked')}
              onClick={async () => {
                const res = await send(() => issue.mutateAsync({ idempotencyKey: crypto.randomUUID(), orderId: order._id }));
                if (res) notifications.show({ color: 'green', message: t('Issued: {{status}}', { status: res.orderStatus }) });
              }}
              data-testid="ship-issue"
            >
              {t('Issue to production')}
            </Button>
            {!online && <NeedsServer>{t('Needs the server: issue when back online')}</NeedsServer>}
          </Stack>
        </Paper>
      ) : (
        <>
          <ScanInput
            label={current ? t('Scan stock into {{no}}', { no: current.packageNo }) : t('Scan stock')}
            data-testid="pack-scan"
            data-scan-field="pack"
            autoFocus
          />
          <Group gap="xs">
            {!shipped && (
              <Button
                size="md"
                disabled={!online}
                onClick={async () => {
                  setStarting(true);
                  // Answered once the order is read again (useShipCall), so the package is among the open ones.
                  const res = await send(() => save.mutateAsync({ orderId: order._id, type: 'box' })).finally(() => setStarting(false));
                  if (!res?.package) return;
                  setChosen(res.package._id);
                  // A new box is weighed next: its Weight takes the focus (scans still pack into it).
                  promptWeight(res.package._id, 'new');
                }}
                data-testid="ship-new-package"
              >
                {t('New package')}
              </Button>
            )}
            {openPackages.length > 1 && (
              <SegmentedControl
                size="md"
                value={current?._id ?? ''}
                onChange={setChosen}
                aria-label={t('Package to pack into')}
                data={openPackages.map((p) => ({
                  value: p._id,
                  label: `#${p.packageNo.startsWith(`${order.number}-`) ? p.packageNo.slice(order.number.length + 1) : p.packageNo}`,
                }))}
                data-testid="ship-choose"
              />
            )}
            <Button
              size="md"
              variant="default"
              disabled={!online || !openPackages.some((p) => p.stockIds.length > 0)}
              onClick={async () => {
                const res = await send(async () => {
                  for (const flush of flushers.current.values()) await flush();
                  return shipAndPrint({ idempotencyKey: crypto.randomUUID(), orderId: order._id });
                });
                if (res) notifications.show({ color: 'green', message: t('Order {{status}}', { status: res.orderStatus }) });
              }}
              data-testid="ship-all"
            >
              {t('Ship all packed')}
            </Button>
          </Group>
          {/* Packing and unpacking go on offline (the outbox); a new package, saves and shipping need the server. */}
          {!online && (
            <NeedsServer testId="ship-needs-server">
              {t('Needs the server: ship when back online. Packing and unpacking are queued.')}
            </NeedsServer>
          )}
          {toCheck.map((x) => (
            <Group key={x.id} justify="space-between" wrap="nowrap" gap="xs" data-testid="pack-to-check">
              <Text size="sm" ff="monospace" style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                {t('{{label}} (to check)', { label: x.label })}
              </Text>
              <QueuedBadge />
            </Group>
          ))}
        </>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        <Paper withBorder p="sm">
          <Title order={3} size="h4">
            {t('Not packed')}
          </Title>
          {unpacked.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('Nothing picked is waiting.')}
            </Text>
          )}
          {unpacked.map((s) => (
            <StagedLine key={s._id} s={s} queued={queuedStock.has(s.stockId)} />
          ))}
        </Paper>
        <Stack gap="sm">
          {packages.map((p) => (
            <PackageCard
              key={p._id}
              p={p}
              staged={staged}
              order={order}
              orderId={order._id}
              send={send}
              save={save.mutateAsync}
              unpack={(packageId, stockId) => packWrite('package/unpack', packageId, stockId)}
              queuedStock={queuedStock}
              online={online}
              ship={shipAndPrint}
              flushers={flushers.current}
              prompt={weighing?.packageId === p._id ? weighing : null}
              onPrompt={(why) => promptWeight(p._id, why)}
              onPromptDone={() => setWeighing((w) => (w?.packageId === p._id ? null : w))}
              focusScan={focusScan}
            />
          ))}
        </Stack>
      </SimpleGrid>
      {!production && (
        <Checkbox
          label={t('Print the packing list when I ship')}
          checked={prefs.printOnShip}
          onChange={(e) => setPrefs({ printOnShip: e.currentTarget.checked })}
          data-testid="print-on-ship"
        />
      )}
    </Stack>
  );
}

function Header({ order, onBack }: { order: OrderHeader; onBack(): void }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="nowrap">
      <div style={{ minWidth: 0 }}>
        <Title order={2} size="h3" ff="monospace" data-testid="ship-order-number">
          {order.number}
        </Title>
        <Text size="sm" truncate data-testid="ship-order-status">
          {[order.type.toUpperCase(), order.customer, order.status].filter(Boolean).join(' · ')}
        </Text>
      </div>
      <Button variant="default" size="md" onClick={onBack} data-testid="ship-back">
        {t('Orders')}
      </Button>
    </Group>
  );
}
