import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Group, JsonInput, MultiSelect, NumberInput, Select, Stack, Switch, TagsInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { validationDetailSchema } from '@floorhand/contract/api';
import { ERR, type ServerErr } from '@floorhand/contract/errors';
import { ENTRY_METHOD, entryMethodFieldName, type EntityDef, type FieldDef } from '@floorhand/contract/records/schema-model';
import { RECORD_KEY, validateField, validateRecord, type ValidationErrors } from '@floorhand/contract/records/validate';
import { screenDecimalSeparator } from '../../lib/i18n.ts';
import { tText } from '../../lib/translate-text.ts';

export interface SchemaFormProps {
  entity: EntityDef;
  /** Starting values, e.g. a record from record/get: its _id and _rev go back with the submitted value. */
  initialValue?: Record<string, unknown>;
  /**
   * Gets the converted record once it passes the client-side checks (scripts run on the server only).
   * A rejection carrying an ERR_BAD_INPUT ServerErr (as ApiError does) shows its messages on the fields.
   */
  onSubmit: (value: Record<string, unknown>) => void | Promise<void>;
  submitLabel?: string;
  /** Editing a stored record: its id field cannot change. */
  editing?: boolean;
}

const PATTERN_HINTS: Partial<Record<FieldDef['dataType'], string>> = {
  date: 'YYYY-MM-DD',
  time: 'hh:mm:ss',
  timestamp: 'YYYY-MM-DD hh:mm:ss',
};

/** Types edited as JSON text: the form keeps the text and parses it when it checks the value. */
const isJsonField = (f: FieldDef) =>
  ['media', 'geo', 'object'].includes(f.dataType) || (f.dataType === 'array' && !!f.items && f.items.dataType !== 'string');

function fromText(field: FieldDef, text: unknown): unknown {
  if (!isJsonField(field) || typeof text !== 'string' || text.trim() === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text; // the engine reports it with the field's type message
  }
}

/** The per-field errors of a server ERR_BAD_INPUT answer (detail: validationDetailSchema as JSON), if it has them. */
export function fieldErrorsOf(err: ServerErr | undefined): { errors: ValidationErrors; calcError?: string } | undefined {
  if (err?.code !== ERR.badInput || !err.detail) return undefined;
  try {
    const parsed = validationDetailSchema.safeParse(JSON.parse(err.detail));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A form for any registered entity: one input per field, checked as the server checks it. */
export function SchemaForm({ entity, initialValue = {}, onSubmit, submitLabel, editing = false }: SchemaFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, unknown>>(() => {
    const start = { ...initialValue };
    for (const f of entity.fields)
      if (isJsonField(f) && start[f.name] !== undefined) start[f.name] = JSON.stringify(start[f.name], null, 2);
    return start;
  });
  const [errors, setErrors] = useState<ValidationErrors>({});
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  const [formMessages, setFormMessages] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const check = (field: FieldDef, raw: unknown) => {
    const { errors: list } = validateField(field, fromText(field, raw));
    setErrors((prev) => ({ ...prev, [field.name]: list }));
  };
  const change = (field: FieldDef, raw: unknown) => {
    setValues((prev) => ({ ...prev, [field.name]: raw }));
    // Quiet until the user has left the field once: "must be provided" after one keystroke helps no one.
    if (touched.has(field.name)) check(field, raw);
  };
  const blur = (field: FieldDef) => {
    setTouched((prev) => new Set(prev).add(field.name));
    check(field, values[field.name]);
  };

  /**
   * The record to validate: empty inputs are left out, so a cleared optional field is removed, and a
   * switch never touched is false, as it shows.
   */
  const record = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const f of entity.fields) if (f.dataType === 'boolean' && !f.conditions?.valid) out[f.name] = false;
    for (const [key, raw] of Object.entries(values)) {
      if (raw === '' || raw === null || raw === undefined) continue;
      const field = entity.fields.find((f) => f.name === key);
      out[key] = field ? fromText(field, raw) : raw;
    }
    return out;
  };

  const shownKeys = new Set(entity.fields.flatMap((f) => (f.entryMethod ? [f.name, entryMethodFieldName(f.name)] : [f.name])));
  const showErrors = (all: ValidationErrors, extra: string[] = []) => {
    setErrors(all);
    // Messages for the record as a whole, or for properties that have no input, go above the button.
    setFormMessages([...Object.entries(all).flatMap(([key, list]) => (key === RECORD_KEY || !shownKeys.has(key) ? list : [])), ...extra]);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validateRecord(entity, record());
    setTouched(new Set(entity.fields.map((f) => f.name)));
    showErrors(result.errors);
    if (!result.ok) return;
    setBusy(true);
    try {
      await onSubmit(result.value);
    } catch (error) {
      const err = (error as { err?: ServerErr }).err;
      const mapped = fieldErrorsOf(err);
      if (mapped) showErrors(mapped.errors, mapped.calcError ? [mapped.calcError] : []);
      else setFormMessages([err?.message ?? (error instanceof Error ? error.message : String(error))]);
    } finally {
      setBusy(false);
    }
  };

  const errorOf = (key: string): ReactNode => {
    const list = errors[key];
    if (!list || list.length === 0) return undefined;
    // Mantine renders the error in a <p>: one block span per message, each in the screen's language
    // (the engine's messages are built from keys with numbered holes; a server's come translated).
    return list.map((message) => (
      <span key={message} style={{ display: 'block' }}>
        {tText(message)}
      </span>
    ));
  };

  const input = (field: FieldDef) => {
    const value = values[field.name];
    const common = {
      label: t(field.label),
      size: 'md' as const,
      required: field.conditions?.required === true,
      error: errorOf(field.name),
      onBlur: () => blur(field),
      disabled: editing && field.name === entity.idFieldName,
      'data-testid': `field-${field.name}`,
      style: { flex: 1 },
    };
    const valid = field.conditions?.valid?.map(String);
    if (valid && field.dataType === 'array') {
      return (
        <MultiSelect {...common} data={valid} value={Array.isArray(value) ? value.map(String) : []} onChange={(v) => change(field, v)} />
      );
    }
    if (valid) {
      return (
        <Select
          {...common}
          data={valid}
          value={value === undefined || value === null ? null : String(value)}
          onChange={(v) => change(field, v ?? '')}
          clearable
        />
      );
    }
    if (isJsonField(field)) {
      return (
        <JsonInput {...common} autosize minRows={2} value={typeof value === 'string' ? value : ''} onChange={(v) => change(field, v)} />
      );
    }
    switch (field.dataType) {
      case 'boolean':
        return (
          <Switch
            {...common}
            checked={value === true}
            onChange={(e) => {
              change(field, e.currentTarget.checked);
              check(field, e.currentTarget.checked);
            }}
          />
        );
      case 'numeric':
        return (
          <NumberInput
            {...common}
            decimalSeparator={screenDecimalSeparator()}
            value={typeof value === 'number' || typeof value === 'string' ? value : ''}
            onChange={(v) => change(field, v)}
          />
        );
      case 'array':
        return <TagsInput {...common} value={Array.isArray(value) ? value.map(String) : []} onChange={(v) => change(field, v)} />;
      default:
        return (
          <TextInput
            {...common}
            placeholder={PATTERN_HINTS[field.dataType]}
            value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
            onChange={(e) => change(field, e.currentTarget.value)}
          />
        );
    }
  };

  const entryMethods = [
    { value: String(ENTRY_METHOD.manual), label: t('Manual') },
    { value: String(ENTRY_METHOD.calculated), label: t('Calculated') },
    { value: String(ENTRY_METHOD.sensor), label: t('Sensor') },
  ];

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid={`schema-form-${entity.type}`}>
      <Stack>
        {entity.fields.map((field) => {
          if (!field.entryMethod) return <div key={field.name}>{input(field)}</div>;
          const em = entryMethodFieldName(field.name);
          return (
            <Group key={field.name} align="flex-start" wrap="nowrap">
              {input(field)}
              <Select
                label={t('Entry method')}
                aria-label={`${t(field.label)}: ${t('Entry method')}`}
                size="md"
                w={150}
                data={entryMethods}
                value={values[em] === undefined || values[em] === null ? null : String(values[em])}
                onChange={(v) => setValues((prev) => ({ ...prev, [em]: v === null ? undefined : Number(v) }))}
                error={errorOf(em)}
                clearable
                data-testid={`field-${em}`}
              />
            </Group>
          );
        })}
        {formMessages.length > 0 && (
          <Alert color="red" data-testid="schema-form-errors" style={{ whiteSpace: 'pre-line' }}>
            {formMessages.map(tText).join('\n')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" size="md" loading={busy} data-testid="schema-form-submit">
            {submitLabel ?? t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
