import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ERR } from '@floorhand/contract/errors';
import { MIN_TOUCH_TARGET_PX, PACK_PICK_MAX_ROWS } from '@floorhand/contract/constants';
import { PRODUCTION_ORDER_TYPES, type OrderHeader } from '@floorhand/contract/orders';
import {
  PACK_SORTS,
  PACKAGE_MEASURE_UNITS,
  PACKAGE_TEXT_MAX,
  PACKAGE_TYPES_DEFAULT,
  PICKED_SHARES,
  SHIPPED_ORDER_TYPES,
  type BoardRow,
  type Package,
  type Staged,
} from '@floorhand/contract/shipping';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { DataTable, type DataColumn } from '../../../components/ui/data-table.tsx';
import { activeFilterCount, FilterFold } from '../../../components/ui/filter-fold.tsx';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';
import { SortDirectionSelect } from '../../../components/ui/sort-direction-select.tsx';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { NeedsServer, QueuedBadge, useOnline } from '../../../components/offline/queued-mark.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useWarehouses } from '../../../lib/inventory-api.ts';
import { onReplayed, sendOrQueue, useOutbox } from '../../../lib/offline/outbox.ts';
import type { OutboxItem } from '../../../lib/offline/replay.ts';
import { showQty } from '../../../lib/inventory-format.ts';
import { readFeedback, refuseScan } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { PackingListButton, printPackingList } from './packing-list-button.tsx';
import { boardQuery, SHIP_REFUSALS, shipOrderQuery, shippingKeys, useShipCall, useShippingRefresh } from '../api/shipping-api.ts';
import { withQueuedPacks } from '../utils/queued-packs.ts';
import { boardArgs, useStockPackPrefs } from '../hooks/use-pack-prefs.ts';
import {
  createOneAtATime,
  formChanges,
  formDirty,
  formProblems,
  PACKAGE_FIELDS,
  weightNeededBy,
  type PackageField,
  type PackageForm,
} from '../utils/one-at-a-time.ts';
import { boardScanMeaning, packScanMeaning } from '../utils/scan-meaning.ts';

type PackSort = (typeof PACK_SORTS)[number];
type ShippedType = (typeof SHIPPED_ORDER_TYPES)[number];
type PickedShare = (typeof PICKED_SHARES)[number];

/** Green dark enough for white badge text at 4.5:1 (Mantine's green 9 gives 4.36:1, axe-core: serious). */
const DONE_GREEN = '#1e6b2f';

/** A Mantine colour (`yellow.9`) or a CSS one (`#1e6b2f`) as CSS: the row's left border takes either. */
const cssColor = (color: string): string => (color.startsWith('#') ? color : `var(--mantine-color-${color.replace('.', '-')})`);

/** How much of an order is picked, in words and a colour (never the colour alone). */

const PICKED_LOOK = new Map([
  ['all', { color: DONE_GREEN, label: 'All picked' }],
  ['part', { color: 'yellow.9', label: 'Part picked' }],
  ['none', { color: 'gray.7', label: 'None picked' }],
] as const);

/**
 * Shipping (`/shipping/{lookupVal?}`): the pack board of sales and movement orders, coloured by how
 * much is picked; an order opens its pack screen: packages, stock scanned into the chosen package,
 * ship one package or the whole order. Production orders are issued instead.
 */
export function ShippingPage() {
  const navigate = useNavigate();
  const { lookupVal } = useParams({ strict: false }) as { lookupVal?: string };
  const number = (lookupVal ?? '').trim();
  useShippingRefresh();
  const open = (value: string) => void navigate({ href: `/shipping/${encodeURIComponent(value.trim())}` });
  if (!number) return <Board onOpen={open} />;
  return <PackOrder number={number} onBack={() => void navigate({ href: '/shipping' })} />;
}

const SORT_LABELS = new Map<PackSort, string>([
  ['dueDate', 'Due date'],
  ['priority', 'Priority'],
  ['number', 'Order number'],
  ['picked', 'Picked share'],
]);

/** The department filter: sent when the field is left or Enter is pressed, not at each keystroke. */
function DepartmentFilter({ value, onChange }: { value: string | null; onChange(v: string | null): void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  const commit = () => {
    const v = text.trim();
    if (v !== (value ?? '')) onChange(v || null);
  };
  return (
    <TextInput
      size="sm"
      label={t('Department')}
      placeholder={t('All')}
      value={text}
      maxLength={40}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
      data-testid="ship-filter-department"
    />
  );
}

function Board({ onOpen }: { onOpen(number: string): void }) {
  const { t } = useTranslation();
  // The filters and sort are the stockPack session preferences: they survive a reload (spec section 3),
  // and go to the server in the board call (the filter holds before maxRows).
  const [prefs, setPrefs] = useStockPackPrefs();
  const warehouses = useWarehouses();
  const q = useQuery(boardQuery(boardArgs(prefs)));
  useScans((scan) => {
    const text = scan.text.trim();
    if (!text) return;
    readFeedback(scan);
    onOpen(boardScanMeaning(text).number);
  });
  const columns = useMemo<DataColumn<BoardRow>[]>(
    () => [
      {
        id: 'number',
        header: t('Order'),
        cell: (o) => (
          <Text fw={700} ff="monospace">
            {o.number}
          </Text>
        ),
        sortValue: (o) => o.number,
        card: 'title',
      },
      { id: 'type', header: t('Type'), cell: (o) => o.type.toUpperCase(), sortValue: (o) => o.type },
      { id: 'customer', header: t('Customer'), cell: (o) => o.customer ?? '', sortValue: (o) => o.customer },
      { id: 'due', header: t('Due'), cell: (o) => o.dueDate ?? '', sortValue: (o) => o.dueDate },
      { id: 'priority', header: t('Priority'), cell: (o) => o.priority, sortValue: (o) => o.priority },
      {
        id: 'picked',
        header: t('Picked'),
        cell: (o) => (
          <Badge color={PICKED_LOOK.get(o.picked)!.color} variant="filled" autoContrast data-testid="board-picked">
            {t(PICKED_LOOK.get(o.picked)!.label)}
          </Badge>
        ),
        sortValue: (o) => o.picked,
      },
      { id: 'packages', header: t('Packages'), cell: (o) => o.packageCount, sortValue: (o) => o.packageCount },
      { id: 'status', header: t('Status'), cell: (o) => o.status, sortValue: (o) => o.status },
    ],
    [t],
  );
  return (
    <Stack gap="sm" maw={1400}>
      <ScanInput
        label={t('Order')}
        placeholder={t('Scan an order traveller or type its number')}
        data-testid="ship-order-input"
        data-scan-field="order"
        autoFocus
      />
      {/* One compact row at 1440; on a handheld the board comes first, the filters folded behind one
          button (two columns when open): each field a 44 px target, reached by Tab. */}
      <FilterFold
        active={activeFilterCount([prefs.filterWarehouse, prefs.filterOrderType, prefs.filterPicked, prefs.filterDepartment])}
        testId="ship-filters-toggle"
      >
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="xs" data-testid="ship-filters">
          <Select
            label={t('Warehouse')}
            placeholder={t('All')}
            clearable
            data={(warehouses.data ?? []).map((w) => w.code)}
            value={prefs.filterWarehouse}
            onChange={(v) => setPrefs({ filterWarehouse: v })}
            data-testid="ship-filter-warehouse"
          />
          <Select
            label={t('Order type')}
            placeholder={t('Both')}
            clearable
            data={SHIPPED_ORDER_TYPES.map((v) => ({ value: v, label: v.toUpperCase() }))}
            value={prefs.filterOrderType || null}
            onChange={(v) => setPrefs({ filterOrderType: (v ?? '') as ShippedType | '' })}
            data-testid="ship-filter-type"
          />
          <Select
            label={t('Picked')}
            placeholder={t('Any')}
            clearable
            data={PICKED_SHARES.map((v) => ({ value: v, label: t(PICKED_LOOK.get(v)!.label) }))}
            value={prefs.filterPicked || null}
            onChange={(v) => setPrefs({ filterPicked: (v ?? '') as PickedShare | '' })}
            data-testid="ship-filter-picked"
          />
          <DepartmentFilter value={prefs.filterDepartment} onChange={(v) => setPrefs({ filterDepartment: v })} />
          <Select
            label={t('Sort by')}
            allowDeselect={false}
            data={PACK_SORTS.map((v) => ({ value: v, label: t(SORT_LABELS.get(v)!) }))}
            value={prefs.sort}
            onChange={(v) => v && setPrefs({ sort: v as PackSort })}
            data-testid="ship-sort"
          />
          <SortDirectionSelect desc={prefs.sortDesc} onChange={(sortDesc) => setPrefs({ sortDesc })} testId="ship-sort-direction" />
        </SimpleGrid>
      </FilterFold>
      <DataTable
        rows={q.data?.orders ?? []}
        columns={columns}
        rowKey={(o) => o._id}
        rowAttrs={(o) => ({ 'data-testid': 'board-row', 'data-number': o.number, 'data-picked': o.picked })}
        rowStyle={(o) => ({ borderLeft: `6px solid ${cssColor(PICKED_LOOK.get(o.picked)!.color)}` })}
        onRowClick={(o) => onOpen(o.number)}
        loading={q.isPending}
        empty={<Text c="dimmed">{t('No order is waiting to be packed.')}</Text>}
        maxRows={PACK_PICK_MAX_ROWS}
        more={q.data?.more}
        testId="ship-board"
      />
    </Stack>
  );
}

function PackOrder({ number, onBack }: { number: string; onBack(): void }) {
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

  useScans((scan) => {
    const text = scan.text.trim();
    if (!text || !order) return;
    const meaning = packScanMeaning({ production, packageId: current?._id ?? null, shipped }, order.number);
    if (meaning.kind === 'refused') return refuseScan(meaning, text);
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
  });

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
                  const res = await send(() => save.mutateAsync({ orderId: order._id, type: 'box' }));
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

function StagedLine({ s, action, queued }: { s: Staged; action?: React.ReactNode; queued?: boolean }) {
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-testid="staged-line" data-stock={s.stockId} data-queued={queued || undefined}>
      <Text size="sm" ff="monospace" truncate style={{ flex: 1, minWidth: 0 }}>
        {`${s.stockId} · ${s.partNumber} · ${showQty(s.qty, s.uom)}`}
      </Text>
      {queued && <QueuedBadge />}
      {action}
    </Group>
  );
}

/**
 * A package's Weight as the pack screen's quantity prompt: opened by New package (`new`) and by a Ship
 * whose carrier asks for a weight the package lacks (`ship`). It takes the focus with the weight
 * selected; Enter saves the package, Escape puts back the saved weight.
 */
interface WeightPrompt {
  packageId: string;
  why: 'new' | 'ship';
  n: number;
}

interface PackageCardProps {
  p: Package;
  order: OrderHeader;
  staged: Staged[];
  orderId: string;
  send<T>(run: () => Promise<T>): Promise<T | undefined>;
  save(args: { orderId: string; packageId: string } & Partial<PackageForm>): Promise<unknown>;
  /** package/unpack through the outbox. */
  unpack(packageId: string, stockId: string): Promise<unknown>;
  /** Stock whose pack or unpack waits in the outbox. */
  queuedStock: ReadonlySet<string>;
  online: boolean;
  ship(args: { idempotencyKey: string; orderId: string; packageId: string }): Promise<{ orderStatus?: string }>;
  /** Where the card registers its "save the form first" for Ship all packed. */
  flushers: Map<string, () => Promise<void>>;
  /** This package's weight prompt, while it is open. */
  prompt: WeightPrompt | null;
  onPrompt(why: WeightPrompt['why']): void;
  onPromptDone(): void;
  focusScan(): void;
}

/** The text fields as tall as the Weight beside them (a QuantityInput, a 44 px target). */
const FIELD_STYLES = { input: { minHeight: MIN_TOUCH_TARGET_PX } };

const shown = (v: number | null) => (v === null ? '' : String(v));
const savedForm = (p: Package): PackageForm => ({
  type: p.type,
  weight: shown(p.weight),
  length: shown(p.length),
  width: shown(p.width),
  height: shown(p.height),
  carrier: p.carrier ?? '',
  service: p.service ?? '',
  tracking: p.tracking ?? '',
});

/** A measure's label with its unit (contract PACKAGE_MEASURE_UNITS): "Length (cm)". */
const MEASURE_LABELS = new Map<'weight' | 'length' | 'width' | 'height', string>([
  ['weight', 'Weight'],
  ['length', 'Length'],
  ['width', 'Width'],
  ['height', 'Height'],
]);

function PackageCard({
  p,
  order,
  staged,
  orderId,
  send,
  save,
  unpack,
  queuedStock,
  online,
  ship,
  flushers,
  prompt,
  onPrompt,
  onPromptDone,
  focusScan,
}: PackageCardProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState<PackageForm>(() => savedForm(p));
  const setField = (key: PackageField) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  // Fields whose problems are said: left once (blurred), or all of them after a Save or Ship was refused for them.
  const [touched, setTouched] = useState<ReadonlySet<PackageField>>(new Set());
  const touch = (key: PackageField) => () => setTouched((s) => (s.has(key) ? s : new Set([...s, key])));
  // Presses whose write has not settled yet, per button (the button shows it is working).
  const [busy, setBusy] = useState({ save: 0, ship: 0 });
  const inside = staged.filter((s) => s.packageId === p._id);
  const shipped = p.status === 'shipped';
  // What the server has of this package: the last answer to a save, or the package as last read.
  const acked = useRef(savedForm(p));
  useEffect(() => {
    acked.current = savedForm(p);
  }, [p]);
  const problems = formProblems(form);
  const cardRef = useRef<HTMLDivElement>(null);
  /** With a problem in the form: all problems said, the first field with one focused; true when the form may be sent. */
  const sendable = (): boolean => {
    const now = formProblems(form);
    if (now.size === 0) return true;
    setTouched(new Set(PACKAGE_FIELDS));
    const first = PACKAGE_FIELDS.find((k) => now.has(k));
    if (first) setTimeout(() => cardRef.current?.querySelector<HTMLInputElement>(`[data-testid="package-${first}"]`)?.focus(), 0);
    return false;
  };
  const problemOf = (key: PackageField) => (touched.has(key) ? problems.get(key) && t(problems.get(key)!) : undefined);
  // Saves the form as it was when the button was pressed (the write runs later, in its turn).
  const saveForm = (values: PackageForm) => async () => {
    const changes = formChanges(values);
    await save({ orderId, packageId: p._id, ...changes });
    acked.current = { ...acked.current, ...changes };
  };
  const flush = useRef<() => Promise<void>>(async () => undefined);
  flush.current = async () => {
    if (shipped || !formDirty(form, acked.current)) return;
    // Ship all packed never sends a form the contract refuses: the card says why, nothing ships.
    if (!sendable()) throw new Error(`The package ${p.packageNo} has fields to correct`);
    await saveForm(form)();
  };
  useEffect(() => {
    flushers.set(p._id, () => flush.current());
    return () => void flushers.delete(p._id);
  }, [flushers, p._id]);
  const pressed = async (what: 'save' | 'ship', run: () => Promise<unknown>) => {
    setBusy((b) => ({ ...b, [what]: b[what] + 1 }));
    try {
      await send(run);
    } finally {
      setBusy((b) => ({ ...b, [what]: b[what] - 1 }));
    }
  };
  const shipRef = useRef<HTMLButtonElement>(null);
  // Save, or Enter in a field (the form's submit). Closing a weight prompt, the focus goes where the
  // packer goes next: back to the Ship that asked for the weight, or to the scan field after a new box.
  const onSave = () => {
    if (!online || !sendable()) return;
    void pressed('save', saveForm(form));
    if (!prompt) return;
    onPromptDone();
    if (prompt.why === 'ship') shipRef.current?.focus();
    else focusScan();
  };
  const cancelWeight = () => {
    setForm((f) => ({ ...f, weight: acked.current.weight }));
    onPromptDone();
    focusScan();
  };
  // Said under the field while a Ship's prompt is open and the weight is still missing.
  const neededBy = prompt?.why === 'ship' ? weightNeededBy(form, acked.current) : undefined;
  // Ship sends what the card shows: a weight typed but not saved yet is saved first, in the same turn.
  // A carrier that asks for a weight the package lacks opens the weight prompt instead (the server
  // would refuse the ship); a field the contract refuses is said, and nothing is sent.
  const onShip = () => {
    if (!online || !sendable()) return;
    if (weightNeededBy(form, acked.current) !== undefined) return onPrompt('ship');
    const values = form;
    void pressed('ship', async () => {
      if (formDirty(values, acked.current)) await saveForm(values)();
      return ship({ idempotencyKey: crypto.randomUUID(), orderId, packageId: p._id });
    });
  };
  // The package types offered: the defaults, and the package's own when it is another (the API takes any).
  const types = [...new Set<string>([...PACKAGE_TYPES_DEFAULT, ...(form.type ? [form.type] : [])])];
  const measure = (key: 'length' | 'width' | 'height') => (
    <TextInput
      label={`${t(MEASURE_LABELS.get(key)!)} (${PACKAGE_MEASURE_UNITS.get(key)})`}
      value={form[key]}
      onChange={(e) => setField(key)(e.currentTarget.value)}
      onBlur={touch(key)}
      error={problemOf(key)}
      disabled={shipped}
      inputMode="decimal"
      autoComplete="off"
      maxLength={40}
      styles={FIELD_STYLES}
      data-testid={`package-${key}`}
    />
  );
  const text = (key: 'carrier' | 'service' | 'tracking', label: string) => (
    <TextInput
      label={t(label)}
      value={form[key]}
      onChange={(e) => setField(key)(e.currentTarget.value)}
      onBlur={touch(key)}
      error={problemOf(key)}
      disabled={shipped}
      autoComplete="off"
      maxLength={PACKAGE_TEXT_MAX.get(key)}
      styles={FIELD_STYLES}
      data-testid={`package-${key}`}
    />
  );
  return (
    <Paper ref={cardRef} withBorder p="sm" data-testid="package-card" data-package={p.packageNo} data-status={p.status}>
      <Stack
        component="form"
        gap={6}
        onSubmit={(e: React.FormEvent) => {
          e.preventDefault();
          if (!shipped) onSave();
        }}
      >
        <Group justify="space-between">
          <Text fw={700} ff="monospace">
            {p.packageNo}
          </Text>
          <Badge color={shipped ? DONE_GREEN : 'gray.7'} variant="filled">
            {shipped ? t('Shipped') : t('Open')}
          </Badge>
        </Group>
        {inside.map((s) => (
          <StagedLine
            key={s._id}
            s={s}
            queued={queuedStock.has(s.stockId)}
            action={
              !shipped && (
                <Button
                  size="sm"
                  mih={44}
                  variant="subtle"
                  style={{ flexShrink: 0 }}
                  aria-label={t('Unpack {{stockId}}', { stockId: s.stockId })}
                  onClick={() => void send(() => unpack(p._id, s.stockId))}
                >
                  {t('Unpack')}
                </Button>
              )
            }
          />
        ))}
        <SimpleGrid cols={2} spacing="xs" verticalSpacing={6}>
          <Select
            label={t('Package type')}
            data={types.map((v) => ({ value: v, label: t(v) }))}
            value={form.type}
            onChange={(v) => v && setField('type')(v)}
            allowDeselect={false}
            disabled={shipped}
            styles={FIELD_STYLES}
            data-testid="package-type"
          />
          {/* Remounted when a prompt opens (its key), so each opening takes the focus and selects. */}
          <QuantityInput
            key={prompt?.n}
            label={`${t('Weight')} (${PACKAGE_MEASURE_UNITS.get('weight')})`}
            value={form.weight}
            onChange={setField('weight')}
            disabled={shipped}
            prompt={prompt && !shipped ? { onCancel: cancelWeight } : undefined}
            error={(neededBy && t('{{carrier}} needs the weight', { carrier: neededBy })) || problemOf('weight')}
            data-testid="package-weight"
          />
        </SimpleGrid>
        <SimpleGrid cols={3} spacing="xs" data-testid="package-dimensions">
          {measure('length')}
          {measure('width')}
          {measure('height')}
        </SimpleGrid>
        <SimpleGrid cols={2} spacing="xs" verticalSpacing={6}>
          {text('carrier', 'Carrier')}
          {text('service', 'Service')}
        </SimpleGrid>
        {text('tracking', 'Tracking')}
        {!shipped && (
          <Group grow>
            <Button type="submit" size="md" variant="default" disabled={!online} loading={busy.save > 0} data-testid="package-save">
              {t('Save')}
            </Button>
            <Button
              ref={shipRef}
              size="md"
              disabled={!online || inside.length === 0}
              loading={busy.ship > 0}
              onClick={onShip}
              data-testid="package-ship"
            >
              {t('Ship')}
            </Button>
          </Group>
        )}
        {!shipped && !online && <NeedsServer testId="package-needs-server">{t('Needs the server: ship when back online')}</NeedsServer>}
        <PackingListButton order={order} p={p} items={inside.length} />
      </Stack>
    </Paper>
  );
}
