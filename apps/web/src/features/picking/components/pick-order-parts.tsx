import { Badge, Button, Checkbox, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OrderHeader, PickLine } from '@floorhand/contract/orders';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { QueuedBadge } from '../../../components/offline/queued-mark.tsx';
import { showQty } from '../../../lib/inventory-format.ts';
import type { useStockPickPrefs } from '../hooks/use-pick-prefs.ts';

// Parts of the pick screen (pick-order.tsx): where the current line's stock is, the picks made, the print preferences.

/** A pick made on the order, with its line's item and unit. */
export type DonePick = PickLine['picks'][number] & { partNumber: string; uom: string };

/** The places that hold the current line's item (the first four); the location is the card's largest text. */
export function LineSources({ sources }: { sources: PickLine['sources'] }) {
  const { t } = useTranslation();
  return sources.length === 0 ? (
    <Text size="sm" c="red">
      {t('No stock of this item in the warehouse.')}
    </Text>
  ) : (
    <Group gap={6}>
      {/* Where to go is what a picker reads from arm's length: the location is the card's largest text. */}
      {sources.slice(0, 4).map((s) => (
        <Badge
          key={s.stockId}
          variant="light"
          size="lg"
          ff="monospace"
          h="auto"
          py={6}
          radius="md"
          maw="100%"
          styles={{ label: { textTransform: 'none', whiteSpace: 'normal', overflow: 'visible', overflowWrap: 'anywhere' } }}
          data-testid="pick-source"
        >
          <span
            style={{ display: 'block', fontSize: 'var(--pick-location-size)', fontWeight: 700, lineHeight: 1.2 }}
            data-testid="pick-source-location"
          >
            {s.location}
          </span>{' '}
          <span
            style={{ display: 'block', fontSize: 'var(--mantine-font-size-sm)', lineHeight: 1.4 }}
          >{`${s.stockId} · ${showQty(s.quantity)}`}</span>
        </Badge>
      ))}
    </Group>
  );
}

/** The order's picks; each one not waiting in the outbox may be returned (after a confirmation). */
export function PickedList({
  picks,
  queuedIds,
  online,
  onReturn,
}: {
  picks: DonePick[];
  queuedIds: ReadonlySet<string>;
  online: boolean;
  onReturn(p: DonePick): void;
}) {
  const { t } = useTranslation();
  if (picks.length === 0) return null;
  return (
    <Stack gap={4}>
      <Title order={3} size="h4">
        {t('Picked')}
      </Title>
      {picks.map((p) => (
        <Group key={p._id} justify="space-between" wrap="nowrap" data-testid="pick-done" data-queued={queuedIds.has(p._id) || undefined}>
          {/* Wraps, never cut: at 360 the item, the quantity and the places all stay readable. */}
          <div style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
            <Text size="sm" ff="monospace" fw={700} data-testid="pick-done-what">
              {`${p.partNumber} · ${showQty(p.qty, p.uom)}`}
            </Text>
            <Text size="sm" ff="monospace" data-testid="pick-done-where">
              {p.toLocation ? `${p.fromLocation} → ${p.toLocation}` : p.fromLocation}
            </Text>
            <Text size="sm" ff="monospace">
              {`${p.stockId} · ${p.pickedBy.name}`}
            </Text>
          </div>
          {queuedIds.has(p._id) ? (
            <QueuedBadge />
          ) : (
            <Button
              size="sm"
              mih={44}
              style={{ flexShrink: 0 }}
              variant="subtle"
              disabled={!online}
              onClick={async () => {
                // A return undoes a pick (the stock goes back, the line opens again): one slip of a gloved thumb must not.
                const answer = await dialogs.confirm({
                  type: 'question',
                  title: t('Return {{stockId}}?', { stockId: p.stockId }),
                  message: t('{{qty}} of {{part}} go back to {{code}}, and the line is open again.', {
                    qty: showQty(p.qty, p.uom),
                    part: p.partNumber,
                    code: p.fromLocation,
                  }),
                  neg: t('Cancel'),
                  pos: t('Return'),
                  focus: 'neg',
                });
                if (answer === 'pos') onReturn(p);
              }}
              aria-label={t('Return {{stockId}} to {{code}}', { stockId: p.stockId, code: p.fromLocation })}
            >
              {t('Return')}
            </Button>
          )}
        </Group>
      ))}
    </Stack>
  );
}

type PickPrefs = ReturnType<typeof useStockPickPrefs>;

/** Labels printed by themselves (the stockPick preferences). */
export function PickPrintPrefs({ prefs, setPrefs }: { prefs: PickPrefs[0]; setPrefs: PickPrefs[1] }) {
  const { t } = useTranslation();
  return (
    <Group gap="md" data-testid="pick-print-prefs">
      <Checkbox
        label={t('Print a pick label after each pick')}
        checked={prefs.printOnPick}
        onChange={(e) => setPrefs({ printOnPick: e.currentTarget.checked })}
        data-testid="print-on-pick"
      />
      <Checkbox
        label={t('Print the order traveller when I take the order')}
        checked={prefs.printOnAssign}
        onChange={(e) => setPrefs({ printOnAssign: e.currentTarget.checked })}
        data-testid="print-on-assign"
      />
    </Group>
  );
}

/** The order's number and what it is, and the way back to the list. */
export function OrderTitle({ order, onBack }: { order: OrderHeader; onBack(): void }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="nowrap">
      <div style={{ minWidth: 0 }}>
        <Title order={2} size="h3" ff="monospace" data-testid="pick-order-number">
          {order.number}
        </Title>
        <Text size="sm" truncate>
          {[order.type.toUpperCase(), order.customer, order.status].filter(Boolean).join(' · ')}
        </Text>
      </div>
      <Button variant="default" size="md" onClick={onBack} data-testid="pick-back">
        {t('Orders')}
      </Button>
    </Group>
  );
}

/** Shorts and skips waiting in the outbox, in words. */
export function QueuedNotes({ notes }: { notes: Array<{ id: string; kind: string; label: string }> }) {
  if (notes.length === 0) return null;
  return (
    <Stack gap={4} data-testid="pick-queued-list">
      {notes.map((q) => (
        <Group key={q.id} justify="space-between" wrap="nowrap" gap="xs" data-testid="pick-queued" data-kind={q.kind}>
          <Text size="sm" style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
            {q.label}
          </Text>
          <QueuedBadge />
        </Group>
      ))}
    </Stack>
  );
}

/** Why the line is closed short: the reason, then Close short or Cancel. */
export function ShortForm({
  reason,
  onReason,
  onSubmit,
  onCancel,
}: {
  reason: string;
  onReason(reason: string): void;
  onSubmit(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <Stack gap="xs">
        <TextInput
          label={t('Why is it short?')}
          value={reason}
          onChange={(e) => onReason(e.currentTarget.value)}
          data-testid="pick-short-reason"
          autoFocus
        />
        <Group grow>
          <Button type="submit" size="md" color="red.9" disabled={!reason.trim()} data-testid="pick-short-confirm">
            {t('Close short')}
          </Button>
          <Button size="md" variant="default" onClick={onCancel}>
            {t('Cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
