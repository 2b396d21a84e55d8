import { useEffect, useRef, useState } from 'react';
import { Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MIN_TOUCH_TARGET_PX } from '@floorhand/contract/constants';
import { type OrderHeader } from '@floorhand/contract/orders';
import { PACKAGE_MEASURE_UNITS, PACKAGE_TEXT_MAX, PACKAGE_TYPES_DEFAULT, type Package, type Staged } from '@floorhand/contract/shipping';
import { QuantityInput } from '../../../components/ui/quantity-input.tsx';
import { NeedsServer } from '../../../components/offline/queued-mark.tsx';
import { PackingListButton } from './packing-list-button.tsx';
import {
  formChanges,
  formDirty,
  formProblems,
  PACKAGE_FIELDS,
  shownForm,
  weightNeededBy,
  type PackageField,
  type PackageForm,
} from '../utils/one-at-a-time.ts';
import { DONE_GREEN } from './pack-board.tsx';
import { StagedLine } from './staged-line.tsx';
import { tk } from '@floorhand/contract/i18n';
import { tText } from '../../../lib/translate-text.ts';

/**
 * A package's Weight as the pack screen's quantity prompt: opened by New package (`new`) and by a Ship
 * whose carrier asks for a weight the package lacks (`ship`). It takes the focus with the weight
 * selected; Enter saves the package, Escape puts back the saved weight.
 */
export interface WeightPrompt {
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
  ['weight', tk('Weight')],
  ['length', tk('Length')],
  ['width', tk('Width')],
  ['height', tk('Height')],
]);

export function PackageCard({
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
  const [form, setForm] = useState<PackageForm>(() => shownForm(savedForm(p)));
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
  const problemOf = (key: PackageField) => (touched.has(key) ? problems.get(key) && tText(problems.get(key)!) : undefined);
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
    setForm((f) => ({ ...f, weight: shownForm(acked.current).weight }));
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
          {text('carrier', tk('Carrier'))}
          {text('service', tk('Service'))}
        </SimpleGrid>
        {text('tracking', tk('Tracking'))}
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
