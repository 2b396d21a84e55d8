import { useState } from 'react';
import { Accordion, Alert, Card, NumberInput, Select, SimpleGrid, Stack, Switch, Tabs, TagsInput, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconBrush, IconBuildingWarehouse } from '@tabler/icons-react';
import {
  APP_SETTINGS_DEFAULTS,
  appSettingsSchema,
  LABEL_TEMPLATE_LISTS,
  ORDER_TYPES,
  SHORT_PICK_DEFAULT,
  SHORT_PICK_MODES,
  type AppSettings,
  type ShortPickMode,
} from '@floorhand/contract/site-admin';
import { isAdmin } from '@floorhand/contract/perms';
import { SaveBar } from '../../../components/ui/save-bar.tsx';
import { useSaveAppSettings } from '../api/save-app-settings.ts';
import { siteDataQuery } from '../../../lib/site-data.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { BrandAdmin } from './brand-admin.tsx';
import { tk } from '@floorhand/contract/i18n';
import { tIssues } from '../../../lib/translate-text.ts';

const ORDER_TYPE_LABELS: Record<(typeof ORDER_TYPES)[number], string> = {
  sos: tk('Sales orders (sos)'),
  sms: tk('Stock-movement orders (sms)'),
  rst: tk('Routing orders (rst)'),
  wos: tk('Work orders (wos)'),
  mos: tk('Manufacturing orders (mos)'),
};
const SHORT_PICK_LABELS = new Map<ShortPickMode, string>([
  ['close', tk('Closes the rest of the line short')],
  ['open', tk('Leaves the rest of the line open')],
  ['backorder', tk('Puts the rest on a backorder (<number>-BO1)')],
]);
const LABEL_LIST_LABELS: Record<(typeof LABEL_TEMPLATE_LISTS)[number], string> = {
  stockLabels: tk('Stock labels'),
  pickLabels: tk('Pick labels'),
  orderTravellerLabels: tk('Order traveller labels'),
  locLabel: tk('Location labels'),
  staffLabel: tk('Staff labels'),
};

/** Stored settings completed with the defaults section by section; unknown sections are kept as they are. */
function toForm(data: Record<string, unknown> | undefined): AppSettings {
  const out: Record<string, unknown> = { ...APP_SETTINGS_DEFAULTS, ...data };
  for (const key of ['labor', 'stockPick', 'stockAdjust', 'custom', 'labels'] as const) {
    const section = appSettingsSchema.shape[key].safeParse(out[key]);
    out[key] = section.success ? section.data : APP_SETTINGS_DEFAULTS[key];
  }
  return out as AppSettings;
}

const num = (v: string | number) => (typeof v === 'number' ? v : Number.NaN);

function Editor({ initial, rev }: { initial: AppSettings; rev: number | undefined }) {
  const { t } = useTranslation();
  const [s, setS] = useState<AppSettings>(initial);
  const save = useSaveAppSettings({ done: t('The site settings are saved') });
  const check = appSettingsSchema.safeParse(s);
  const problems = check.success ? [] : tIssues(check.error.issues);
  const dirty = JSON.stringify(s) !== JSON.stringify(initial);
  const tags = (value: string[], onChange: (v: string[]) => void, label: string, testId?: string) => (
    <TagsInput
      key={label}
      label={t(label)}
      value={value}
      onChange={onChange}
      size="md"
      clearable
      splitChars={[',', ';']}
      data-testid={testId}
    />
  );

  return (
    <Stack>
      <Card withBorder>
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('Labor')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label={t('Hours shown with decimals')}
              min={0}
              max={4}
              allowDecimal={false}
              value={s.labor.displayScale}
              onChange={(v) => setS({ ...s, labor: { ...s.labor, displayScale: num(v) } })}
              data-testid="labor-displayScale"
            />
            <NumberInput
              label={t('Round to minutes')}
              description={t('0 keeps exact times')}
              min={0}
              max={60}
              allowDecimal={false}
              value={s.labor.roundToMinutes}
              onChange={(v) => setS({ ...s, labor: { ...s.labor, roundToMinutes: num(v) } })}
              data-testid="labor-roundToMinutes"
            />
            <NumberInput
              label={t('Batch grace time (seconds)')}
              min={0}
              max={3600}
              allowDecimal={false}
              value={s.labor.batchGraceTimeSecs}
              onChange={(v) => setS({ ...s, labor: { ...s.labor, batchGraceTimeSecs: num(v) } })}
            />
          </SimpleGrid>
        </Stack>
      </Card>

      <Card withBorder>
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('Stock picking statuses')}
          </Title>
          <Text size="sm" c="dimmed">
            {t(
              'Include: statuses that make an order pickable. Assign and Picked: the first status is set when a picker takes the order and when it is fully picked; any status of the list counts.',
            )}
          </Text>
          <Accordion variant="separated" multiple>
            {ORDER_TYPES.map((type) => (
              <Accordion.Item key={type} value={type}>
                <Accordion.Control style={{ minHeight: 44 }}>{t(ORDER_TYPE_LABELS[type])}</Accordion.Control>
                <Accordion.Panel>
                  <Stack gap="xs">
                    {(['include', 'assign', 'picked'] as const).map((list) =>
                      tags(
                        s.stockPick[type][list],
                        (v) => setS({ ...s, stockPick: { ...s.stockPick, [type]: { ...s.stockPick[type], [list]: v } } }),
                        list === 'include' ? tk('Include') : list === 'assign' ? tk('Assign') : tk('Picked'),
                      ),
                    )}
                    <Select
                      label={t('A short pick')}
                      size="md"
                      allowDeselect={false}
                      value={s.stockPick[type].short ?? SHORT_PICK_DEFAULT}
                      onChange={(v) =>
                        v && setS({ ...s, stockPick: { ...s.stockPick, [type]: { ...s.stockPick[type], short: v as ShortPickMode } } })
                      }
                      data={SHORT_PICK_MODES.map((mode) => ({ value: mode, label: t(SHORT_PICK_LABELS.get(mode)!) }))}
                      data-testid={`short-${type}`}
                    />
                  </Stack>
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </Stack>
      </Card>

      <Card withBorder>
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('Stock adjust')}
          </Title>
          <Switch
            label={t('Clear the destination location after each move')}
            checked={s.stockAdjust.clearDstLoc}
            onChange={(e) => setS({ ...s, stockAdjust: { ...s.stockAdjust, clearDstLoc: e.currentTarget.checked } })}
          />
          {tags(
            s.stockAdjust.reasons,
            (v) => setS({ ...s, stockAdjust: { ...s.stockAdjust, reasons: v } }),
            tk('Adjustment reasons'),
            'adjust-reasons',
          )}
        </Stack>
      </Card>

      <Card withBorder>
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('Custom')}
          </Title>
          {tags(s.custom.certSource, (v) => setS({ ...s, custom: { ...s.custom, certSource: v } }), tk('Certificate sources'))}
        </Stack>
      </Card>

      <Card withBorder>
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('Label templates')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {LABEL_TEMPLATE_LISTS.map((list) =>
              tags(s.labels[list], (v) => setS({ ...s, labels: { ...s.labels, [list]: v } }), LABEL_LIST_LABELS[list]),
            )}
          </SimpleGrid>
        </Stack>
      </Card>

      <SaveBar
        problems={problems}
        dirty={dirty}
        saving={save.isPending}
        saveLabel={t('Save site settings')}
        saveTestId="save-site-settings"
        onSave={() => check.success && save.mutate({ siteData: { _rev: rev, data: check.data } })}
        onDiscard={() => setS(initial)}
      />
    </Stack>
  );
}

function SiteSettings() {
  const { t } = useTranslation();
  const q = useQuery(siteDataQuery('conf', 'app_settings'));
  if (q.isError) return <Alert color="red">{t('The site settings could not be loaded.')}</Alert>;
  if (!q.data?.siteData) return <Text c="dimmed">{t('Loading…')}</Text>;
  const { siteData } = q.data;
  return <Editor key={`${siteData._rev ?? 0}`} initial={toForm(siteData.data)} rev={siteData._rev} />;
}

/** The site-wide settings for administrators, shown under App Settings: app settings and brand. */
export function AppSettingsAdmin() {
  const { t } = useTranslation();
  const perms = useSessionStore((s) => s.perms);
  if (!perms || !isAdmin(perms)) return null;
  return (
    <Card withBorder data-testid="site-settings-admin">
      <Stack>
        <div>
          <Title order={2} size="h3">
            {t('Site settings')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('For every device of this site; only administrators see this.')}
          </Text>
        </div>
        <Tabs defaultValue="settings" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="settings" leftSection={<IconBuildingWarehouse size={18} />} style={{ minHeight: 44 }}>
              {t('Work')}
            </Tabs.Tab>
            <Tabs.Tab value="brand" leftSection={<IconBrush size={18} />} style={{ minHeight: 44 }} data-testid="tab-brand">
              {t('Brand')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="settings">
            <SiteSettings />
          </Tabs.Panel>
          <Tabs.Panel value="brand">
            <BrandAdmin />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </Card>
  );
}
