import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Divider,
  Group,
  Loader,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { CallArgs } from '@floorhand/contract/api';
import { formatQty } from '@floorhand/contract/quantity';
import { tk } from '@floorhand/contract/i18n';
import { ORDER_TYPES } from '@floorhand/contract/site-admin';
import { ORDER_SHIP_TO_MAX, type Order, type OrderType } from '@floorhand/contract/orders';
import { useWarehouses } from '../../../lib/inventory-api.ts';
import { readQtyInput, showQty } from '../../../lib/inventory-format.ts';
import { useNarrow } from '../../../lib/use-narrow.ts';
import { orderQuery } from '../api/get-order.ts';
import { useSaveOrder } from '../api/save-order.ts';
import { tText } from '../../../lib/translate-text.ts';
import { KNOWN_STATUSES } from '../utils/order-statuses.ts';

interface LineDraft {
  key: string;
  lineNo: number;
  partNumber: string;
  qty: string;
  /** Picked or closed short: the line's floor, and it cannot be removed when picked. */
  done: number;
  picked: number;
}
interface Draft {
  type: OrderType;
  number: string;
  status: string | null;
  warehouse: string | null;
  customer: string;
  /** The ship-to address, a line each (the packing list prints it). */
  shipTo: string;
  dueDate: string;
  priority: number | string;
  notes: string;
  stagingLocation: string;
  department: string;
  lines: LineDraft[];
}

const draftOf = (o: Order | null, warehouse: string | null): Draft => ({
  type: o?.type ?? 'sos',
  number: o?.number ?? '',
  status: null,
  warehouse: o?.warehouse ?? warehouse,
  customer: o?.customer ?? '',
  shipTo: o?.shipTo ?? '',
  dueDate: o?.dueDate ?? '',
  priority: o?.priority ?? 0,
  notes: o?.notes ?? '',
  stagingLocation: o?.stagingLocation ?? '',
  department: o?.department ?? '',
  lines: o
    ? o.lines.map((l) => ({
        key: l._id,
        lineNo: l.lineNo,
        partNumber: l.partNumber,
        qty: showQty(l.qty),
        done: l.picked + l.short,
        picked: l.picked,
      }))
    : [{ key: 'new-1', lineNo: 1, partNumber: '', qty: '1', done: 0, picked: 0 }],
});

/** What the form refuses before asking the server (the server says the rest: unknown parts, picked lines). */
function problemsOf(d: Draft, editing: boolean): Map<string, string> {
  const out = new Map<string, string>();
  if (!editing && !d.number.trim()) out.set('number', tk('Give the order number'));
  else if (!editing && !/^[\x21-\x7E]+$/.test(d.number.trim())) out.set('number', tk('Printable characters without spaces'));
  if (!d.warehouse) out.set('warehouse', tk('Choose the warehouse'));
  if (d.lines.length === 0) out.set('lines', tk('An order needs at least one line'));
  for (const l of d.lines) {
    if (!l.partNumber.trim()) out.set(`${l.key}.partNumber`, tk('Give the part number'));
    const q = readQtyInput(l.qty);
    if (!q.ok) out.set(`${l.key}.qty`, q.message);
    else if (q.units <= 0n) out.set(`${l.key}.qty`, tk('More than 0'));
  }
  return out;
}

/** A line's quantity as sent: canonical text ("2,5" typed on a Spanish screen is "2.5"); problemsOf refused the rest. */
function sentQty(text: string): string {
  const q = readQtyInput(text);
  return q.ok ? formatQty(q.units) : text.trim();
}

/** Creates an order, or edits one's header and lines, in a modal (full screen on a handheld). */
export function OrderEditor({ orderId, onClose }: { orderId: string | null; onClose(): void }) {
  const { t } = useTranslation();
  const narrow = useNarrow();
  const q = useQuery({ ...orderQuery(orderId ?? ''), enabled: orderId !== null });
  const order = q.data?.order ?? null;
  const title = orderId ? t('Edit order {{number}}', { number: order?.number ?? '' }) : t('New order');
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      fullScreen={narrow}
      size="xl"
      closeButtonProps={{ 'aria-label': t('Close') }}
      data-testid="order-editor"
    >
      {orderId && q.isPending ? (
        <Loader />
      ) : orderId && !order ? (
        <Alert color="red">{t('The order cannot be read.')}</Alert>
      ) : (
        <EditorForm order={order} onClose={onClose} />
      )}
    </Modal>
  );
}

function EditorForm({ order, onClose }: { order: Order | null; onClose(): void }) {
  const { t } = useTranslation();
  const warehouses = useWarehouses();
  const save = useSaveOrder();
  const editing = order !== null;
  const [draft, setDraft] = useState<Draft>(() => draftOf(order, null));
  const [tried, setTried] = useState(false);
  const [seq, setSeq] = useState(1);
  const warehouse = draft.warehouse ?? warehouses.data?.[0]?.code ?? null;
  const problems = problemsOf({ ...draft, warehouse }, editing);
  const shown = (key: string) => (tried ? problems.get(key) : undefined);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setLine = (key: string, patch: Partial<LineDraft>) =>
    setDraft((d) => ({ ...d, lines: d.lines.map((l) => (l.key === key ? { ...l, ...patch } : l)) }));
  const addLine = () => {
    const next = seq + 1;
    setSeq(next);
    setDraft((d) => ({
      ...d,
      lines: [
        ...d.lines,
        { key: `new-${next}`, lineNo: Math.max(0, ...d.lines.map((l) => l.lineNo)) + 1, partNumber: '', qty: '1', done: 0, picked: 0 },
      ],
    }));
    // The new line's part number takes the focus (keyboard alone).
    setTimeout(
      () => document.querySelector<HTMLInputElement>('[data-testid="order-line"]:last-of-type [data-testid="order-line-part"]')?.focus(),
      0,
    );
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (problems.size > 0) return;
    const text = (v: string) => (v.trim() ? v.trim() : undefined);
    const input: CallArgs<'order/save'>['order'] = {
      type: draft.type,
      number: editing ? order.number : draft.number.trim(),
      warehouse: warehouse!,
      priority: Number(draft.priority) || 0,
      lines: draft.lines.map((l) => ({ lineNo: l.lineNo, partNumber: l.partNumber.trim(), qty: sentQty(l.qty) })),
      ...(draft.status ? { status: draft.status } : {}),
      ...(text(draft.customer) ? { customer: text(draft.customer) } : {}),
      ...(text(draft.shipTo) ? { shipTo: text(draft.shipTo) } : {}),
      ...(text(draft.dueDate) ? { dueDate: text(draft.dueDate) } : {}),
      ...(text(draft.notes) ? { notes: draft.notes } : {}),
      ...(text(draft.stagingLocation) ? { stagingLocation: text(draft.stagingLocation) } : {}),
      ...(text(draft.department) ? { department: text(draft.department) } : {}),
    };
    try {
      const res = await save.mutateAsync({ order: input, idempotencyKey: crypto.randomUUID() });
      notifications.show({
        color: 'green',
        message: res.created
          ? t('Order {{number}} created', { number: input.number })
          : t('Order {{number}} saved', { number: input.number }),
      });
      onClose();
    } catch {
      // The error dialog has said why (an unknown part, a picked line); the form keeps what was typed.
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="order-form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('Order type')}
            data={ORDER_TYPES.map((v) => ({ value: v, label: v.toUpperCase() }))}
            value={draft.type}
            onChange={(v) => v && set({ type: v as OrderType })}
            disabled={editing}
            allowDeselect={false}
            data-testid="order-type"
          />
          <TextInput
            label={t('Order number')}
            value={editing ? order.number : draft.number}
            onChange={(e) => set({ number: e.currentTarget.value })}
            disabled={editing}
            required={!editing}
            error={shown('number') && tText(shown('number')!)}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            data-autofocus
            data-testid="order-number"
          />
          <Select
            label={t('Warehouse')}
            data={(warehouses.data ?? []).map((w) => ({ value: w.code, label: `${w.code} – ${w.name}` }))}
            value={warehouse}
            onChange={(v) => set({ warehouse: v })}
            allowDeselect={false}
            error={shown('warehouse') && tText(shown('warehouse')!)}
            data-testid="order-warehouse"
          />
          <Select
            label={t('Status')}
            description={editing ? t('Now: {{status}}. Leave empty to keep it.', { status: order.status }) : t('Empty: open')}
            placeholder={editing ? order.status : 'open'}
            clearable
            data={KNOWN_STATUSES.filter((s) => s !== 'cancelled')}
            value={draft.status}
            onChange={(v) => set({ status: v })}
            data-testid="order-status"
          />
          <TextInput
            label={t('Customer or destination')}
            value={draft.customer}
            onChange={(e) => set({ customer: e.currentTarget.value })}
            maxLength={200}
            data-testid="order-customer"
          />
          <TextInput
            label={t('Due date')}
            type="date"
            value={draft.dueDate}
            onChange={(e) => set({ dueDate: e.currentTarget.value })}
            data-testid="order-due"
          />
          <NumberInput
            label={t('Priority')}
            min={0}
            max={9999}
            allowDecimal={false}
            value={draft.priority}
            onChange={(v) => set({ priority: v })}
            data-testid="order-priority"
          />
          <TextInput
            label={t('Staging location')}
            value={draft.stagingLocation}
            onChange={(e) => set({ stagingLocation: e.currentTarget.value })}
            autoCapitalize="off"
            spellCheck={false}
            data-testid="order-staging"
          />
          <TextInput
            label={t('Department')}
            value={draft.department}
            onChange={(e) => set({ department: e.currentTarget.value })}
            data-testid="order-department"
          />
        </SimpleGrid>
        <Textarea
          label={t('Ship-to address')}
          description={t('A line each: name, street, town, country')}
          value={draft.shipTo}
          onChange={(e) => set({ shipTo: e.currentTarget.value })}
          maxLength={ORDER_SHIP_TO_MAX}
          autosize
          minRows={3}
          data-testid="order-ship-to"
        />
        <Textarea
          label={t('Notes')}
          value={draft.notes}
          onChange={(e) => set({ notes: e.currentTarget.value })}
          maxLength={2000}
          autosize
          minRows={2}
          data-testid="order-notes"
        />
        <Divider label={t('Lines')} labelPosition="left" />
        {shown('lines') && <Text c="red">{tText(shown('lines')!)}</Text>}
        <Stack gap="xs" data-testid="order-lines">
          {draft.lines.map((l) => (
            <Paper key={l.key} withBorder p="xs" data-testid="order-line" data-line={l.lineNo}>
              <Group align="flex-start" gap="xs" wrap="nowrap">
                <Text fw={700} w={36} pt={30} ta="right" aria-hidden>
                  {l.lineNo}
                </Text>
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" style={{ flex: 1 }}>
                  <TextInput
                    label={t('Part number (line {{n}})', { n: l.lineNo })}
                    value={l.partNumber}
                    onChange={(e) => setLine(l.key, { partNumber: e.currentTarget.value })}
                    disabled={l.done > 0}
                    error={shown(`${l.key}.partNumber`) && tText(shown(`${l.key}.partNumber`)!)}
                    autoCapitalize="off"
                    spellCheck={false}
                    data-testid="order-line-part"
                  />
                  <TextInput
                    label={t('Quantity (line {{n}})', { n: l.lineNo })}
                    description={l.done > 0 ? t('{{n}} picked or closed', { n: showQty(l.done) }) : undefined}
                    value={l.qty}
                    onChange={(e) => setLine(l.key, { qty: e.currentTarget.value })}
                    inputMode="decimal"
                    error={shown(`${l.key}.qty`) && tText(shown(`${l.key}.qty`)!)}
                    data-testid="order-line-qty"
                  />
                </SimpleGrid>
                <ActionIcon
                  size={44}
                  mt={24}
                  variant="subtle"
                  color="red.9"
                  aria-label={t('Remove line {{n}}', { n: l.lineNo })}
                  disabled={l.picked > 0 || draft.lines.length === 1}
                  onClick={() => set({ lines: draft.lines.filter((x) => x.key !== l.key) })}
                  data-testid="order-line-remove"
                >
                  <IconTrash size={20} />
                </ActionIcon>
              </Group>
            </Paper>
          ))}
        </Stack>
        <Group justify="space-between">
          <Button variant="default" leftSection={<IconPlus size={20} />} onClick={addLine} data-testid="order-line-add">
            {t('Add line')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('Close')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="order-save">
              {editing ? t('Save') : t('Create')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
