import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Group,
  Image,
  Loader,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconDeviceFloppy } from '@tabler/icons-react';
import {
  LABEL_DPI,
  LABEL_FIELDS,
  LABEL_WORDS,
  LABEL_MM_MAX,
  LABEL_MM_MIN,
  templateProblems,
  type LabelTemplate,
} from '@floorhand/contract/labels';
import { ApiError } from '../../../lib/api.ts';
import { previewQuery } from '../api/preview-label.ts';
import { useSaveTemplate, useTemplates } from '../api/templates.ts';
import { showTimestamp } from '../../../lib/inventory-format.ts';
import { screenDecimalSeparator } from '../../../lib/i18n.ts';
import { tk } from '@floorhand/contract/i18n';
import { tText } from '../../../lib/translate-text.ts';

const KIND_TITLES = new Map([
  ['stock', tk('Stock')],
  ['pick', tk('Pick')],
  ['orderTraveller', tk('Order traveller')],
  ['loc', tk('Location')],
  ['staff', tk('Staff')],
  ['package', tk('Package')],
]);

interface Draft {
  /** The template the draft was made from. */
  of: string;
  name: string;
  zpl: string;
  widthMm: number;
  heightMm: number;
  dpi: (typeof LABEL_DPI)[number];
}
const draftOf = (t: LabelTemplate): Draft => ({
  of: t.templateId,
  name: t.name,
  zpl: t.zpl,
  widthMm: t.widthMm,
  heightMm: t.heightMm,
  dpi: LABEL_DPI.find((d) => d === t.dpi) ?? 203,
});

/**
 * The label templates: pick one, see the label the server renders from its exact ZPL with sample data,
 * and (administrators) change it; every save is a new version, and a job keeps the version it printed.
 */
export function TemplatesPanel({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const templates = useTemplates();
  const list = templates.data?.templates ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const current = list.find((x) => x.templateId === chosen) ?? list[0];
  const [draft, setDraft] = useState<Draft | null>(null);
  const save = useSaveTemplate();
  const [saveError, setSaveError] = useState<string | null>(null);

  useEffect(() => {
    if (current) setDraft(draftOf(current));
    setSaveError(null);
  }, [current]);

  const [debounced] = useDebouncedValue(draft, 400);
  const problems = current && debounced ? templateProblems(current.kind, debounced.zpl) : [];
  const preview = useQuery({
    ...previewQuery(
      current && debounced
        ? { kind: current.kind, zpl: debounced.zpl, widthMm: debounced.widthMm, heightMm: debounced.heightMm, dpi: debounced.dpi }
        : { kind: 'stock', zpl: '', widthMm: 50, heightMm: 25, dpi: 203 },
    ),
    enabled: !!current && !!debounced && problems.length === 0,
  });

  if (templates.isPending) return <Loader />;
  if (!current || !draft) return null;

  const onSave = async (asNew: boolean) => {
    setSaveError(null);
    try {
      const res = await save.mutateAsync({
        ...(asNew ? {} : { templateId: current.templateId, expectedVersion: current.version, isDefault: current.isDefault }),
        kind: current.kind,
        name: asNew ? `${draft.name} (copy)` : draft.name,
        zpl: draft.zpl,
        widthMm: draft.widthMm,
        heightMm: draft.heightMm,
        dpi: draft.dpi,
      });
      if (res.template) {
        setChosen(res.template.templateId);
        notifications.show({
          closeButtonProps: { 'aria-label': t('Close') },
          color: 'green',
          message: t('Saved {{name}}, version {{version}}', { name: res.template.name, version: res.template.version }),
        });
      }
    } catch (e) {
      if (e instanceof ApiError) setSaveError(e.err.message);
    }
  };

  const fields = [...(LABEL_FIELDS.get(current.kind)?.keys() ?? [])];
  const previewError = problems.length
    ? problems.map(tText).join('. ')
    : preview.error instanceof ApiError
      ? preview.error.err.message
      : null;

  return (
    <Stack gap="sm" data-testid="templates-panel">
      <Select
        label={t('Template')}
        data={[...KIND_TITLES.entries()].map(([kind, title]) => ({
          group: t(title),
          items: list
            .filter((x) => x.kind === kind)
            .map((x) => ({ value: x.templateId, label: `${x.name}${x.isDefault ? ` (${t('default')})` : ''} · v${x.version}` })),
        }))}
        value={current.templateId}
        onChange={(v) => v && setChosen(v)}
        allowDeselect={false}
        size="md"
        maw={520}
        data-testid="template-select"
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Stack gap="xs">
          <TextInput
            label={t('Name')}
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
            readOnly={!canEdit}
            size="md"
            data-testid="template-name"
          />
          <Group gap="xs" wrap="wrap" align="flex-end">
            <NumberInput
              label={t('Width (mm)')}
              value={draft.widthMm}
              min={LABEL_MM_MIN}
              max={LABEL_MM_MAX}
              decimalScale={2}
              decimalSeparator={screenDecimalSeparator()}
              onChange={(v) => setDraft({ ...draft, widthMm: Number(v) || LABEL_MM_MIN })}
              readOnly={!canEdit}
              size="md"
              w={130}
            />
            <NumberInput
              label={t('Height (mm)')}
              value={draft.heightMm}
              min={LABEL_MM_MIN}
              max={LABEL_MM_MAX}
              decimalScale={2}
              decimalSeparator={screenDecimalSeparator()}
              onChange={(v) => setDraft({ ...draft, heightMm: Number(v) || LABEL_MM_MIN })}
              readOnly={!canEdit}
              size="md"
              w={130}
            />
            <Select
              label={t('Resolution')}
              data={LABEL_DPI.map((d) => ({ value: String(d), label: `${d} dpi` }))}
              value={String(draft.dpi)}
              onChange={(v) => setDraft({ ...draft, dpi: LABEL_DPI.find((d) => String(d) === v) ?? 203 })}
              readOnly={!canEdit}
              allowDeselect={false}
              size="md"
              w={140}
            />
          </Group>
          <Textarea
            label={t('ZPL')}
            description={t(
              "Fields are written {{example}}; this kind may use: {{fields}}. The label's own words are written {{wordExample}} and print in the language of whoever prints: {{words}}",
              {
                example: '{{stockId}}',
                fields: fields.join(', '),
                wordExample: '{{t:Qty}}',
                words: [...LABEL_WORDS].join(', '),
                interpolation: { escapeValue: false },
              },
            )}
            value={draft.zpl}
            onChange={(e) => setDraft({ ...draft, zpl: e.currentTarget.value })}
            readOnly={!canEdit}
            autosize
            minRows={8}
            maxRows={20}
            spellCheck={false}
            styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
            data-testid="template-zpl"
          />
          {saveError && (
            <Alert color="red" data-testid="template-save-error">
              {saveError}
            </Alert>
          )}
          {canEdit && (
            <Group gap="xs">
              <Button
                leftSection={<IconDeviceFloppy size={18} />}
                onClick={() => void onSave(false)}
                loading={save.isPending}
                disabled={problems.length > 0}
                data-testid="template-save"
              >
                {t('Save as version {{n}}', { n: current.version + 1 })}
              </Button>
              <Button variant="default" onClick={() => void onSave(true)} disabled={problems.length > 0} data-testid="template-save-new">
                {t('Save as a new template')}
              </Button>
            </Group>
          )}
          <Text size="sm" c="dimmed">
            {t('Version {{version}}, saved by {{by}} on {{at}}', {
              version: current.version,
              by: current.savedBy,
              at: showTimestamp(current.savedAt),
            })}
          </Text>
        </Stack>
        <Paper withBorder p="sm" bg="var(--mantine-color-default-hover)">
          <Text fw={600} mb="xs">
            {t('Preview with sample data')}
          </Text>
          {previewError && (
            <Alert color="red" data-testid="template-preview-error">
              {previewError}
            </Alert>
          )}
          {!previewError && preview.isFetching && !preview.data && <Loader />}
          {!previewError && preview.data?.png && (
            <Box style={{ background: 'white', border: '1px solid #ccc', display: 'inline-block', maxWidth: '100%' }}>
              <Image
                src={`data:image/png;base64,${preview.data.png}`}
                alt={t('Preview of {{name}}', { name: draft.name })}
                maw="100%"
                data-testid="template-preview"
                data-template={debounced?.of}
              />
            </Box>
          )}
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
