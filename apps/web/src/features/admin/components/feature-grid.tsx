import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Group,
  NativeSelect,
  ScrollArea,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconDeviceFloppy, IconEraser, IconRotate } from '@tabler/icons-react';
import { EVERYONE, type FeatureGrid as Grid } from '@floorhand/contract/roles';
import { MIN_TOUCH_TARGET_PX } from '@floorhand/contract/constants';
import { DEFAULT_NONE, nextLevel, type FeatureLevel } from '@floorhand/contract/features';
import { tk } from '@floorhand/contract/i18n';
import { useWorkAreas, type WorkAreaEntry } from '../../../components/ui/work-areas.tsx';
import { useNarrow } from '../../../lib/use-narrow.ts';
import { useSaveFeatureAccess } from '../api/save-feature-access.ts';
import { featureAccessQuery } from '../api/get-feature-access.ts';

type Levels = Grid['levels'];

/** The spec's tooltip wording per level. */
export const LEVEL_TOOLTIP: Record<'null' | '0' | '1', string> = {
  null: tk('default use'),
  0: tk('members have no access'),
  1: tk('full access'),
};
/** The actions' names (FEATURE_ACTIONS after the area), each a key. */
const ACTION_WORDS: ReadonlySet<string> = new Set([
  tk('adjust'),
  tk('move'),
  tk('split'),
  tk('receive'),
  tk('edit'),
  tk('items'),
  tk('post'),
  tk('tasks'),
  tk('orders'),
]);

const levelOf = (levels: Levels, role: string, feature: string): FeatureLevel => levels[role]?.[feature] ?? null;

/**
 * Green for Full and red for None (the spec's colours), dark enough for white 14 px text (WCAG AA
 * 4.5:1: 5.1 and 5.6). Mantine's green-6 and red-6 gave 2.4 and 3.3, which axe refused once the
 * demo's roles had Full cells.
 */
export const CELL_COLOURS = { full: '#2e7d32', none: '#c62828' } as const;

/** The grid with one cell set; null removes the cell (default). */
export function withLevel(levels: Levels, role: string, feature: string, level: FeatureLevel): Levels {
  const row = { ...levels[role] };
  if (level === null) delete row[feature];
  else row[feature] = level;
  const out = { ...levels, [role]: row };
  if (!Object.keys(row).length) delete out[role];
  return out;
}

function featureLabel(feature: string, t: (s: string) => string, areas: readonly WorkAreaEntry[]): { label: string; action: boolean } {
  const [area, action] = feature.split('.');
  const title = areas.find((w) => w.feature === area)?.title ?? area ?? feature;
  return action
    ? { label: `${t(title)} · ${ACTION_WORDS.has(action) ? t(action) : action}`, action: true }
    : { label: t(title), action: false };
}

function Cell({
  level,
  onClick,
  onClear,
  label,
  width,
}: {
  level: FeatureLevel;
  onClick: () => void;
  onClear: () => void;
  label: string;
  width: number;
}) {
  const { t } = useTranslation();
  const look =
    level === 1
      ? { bg: CELL_COLOURS.full, c: 'white', text: t('Full') }
      : level === 0
        ? { bg: CELL_COLOURS.none, c: 'white', text: t('None') }
        : { bg: 'transparent', c: 'inherit', text: '' };
  return (
    <Tooltip label={t(LEVEL_TOOLTIP[String(level) as keyof typeof LEVEL_TOOLTIP])} openDelay={300}>
      <UnstyledButton
        onClick={onClick}
        onKeyDown={(e) => {
          if (e.key === 'Delete' || e.key === 'Backspace') {
            e.preventDefault();
            onClear();
          }
        }}
        aria-label={`${label}: ${t(LEVEL_TOOLTIP[String(level) as keyof typeof LEVEL_TOOLTIP])}`}
        data-level={level === null ? 'default' : level}
        style={{
          width,
          height: MIN_TOUCH_TARGET_PX,
          borderRadius: 6,
          border: '1px solid var(--mantine-color-gray-4)',
          background: look.bg,
          color: look.c,
          fontWeight: 600,
          fontSize: 14,
          textAlign: 'center',
        }}
      >
        {look.text}
      </UnstyledButton>
    </Tooltip>
  );
}

function GridEditor({ grid }: { grid: Grid }) {
  const { t } = useTranslation();
  const areas = useWorkAreas();
  const [levels, setLevels] = useState<Levels>(grid.levels);
  const [mode, setMode] = useState<'cycle' | 'clear'>('cycle');
  const save = useSaveFeatureAccess({ done: t('Feature access is saved; every session follows at once') });
  const dirty = JSON.stringify(levels) !== JSON.stringify(grid.levels);
  const roleLabel = (role: string) => (role === EVERYONE ? t('Everyone') : role);
  // On a handheld one role at a time, chosen above the grid: four role columns beside the feature
  // names do not fit 360 px (two showed), and a supervisor reads one role's column at a glance.
  const narrow = useNarrow();
  const [chosenRole, setChosenRole] = useState(grid.roles[0] ?? EVERYONE);
  const roles = narrow ? grid.roles.filter((r) => r === chosenRole) : grid.roles;

  const press = (role: string, feature: string) => {
    const current = levelOf(levels, role, feature);
    // The spec's cycle: default → None → Full; Full has no next step, so tapping it again keeps it.
    setLevels(withLevel(levels, role, feature, mode === 'clear' ? null : current === 1 ? 1 : nextLevel(current)));
  };

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t(
          'Tap a cell to go from default (blank) to None (red) to Full (green). Full is the last step: to go back to default, switch to "Tap clears", press Delete on a cell, or reset everything.',
        )}
      </Text>
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'cycle' | 'clear')}
          data={[
            { value: 'cycle', label: t('Tap cycles') },
            { value: 'clear', label: t('Tap clears') },
          ]}
          size="md"
          // The labels are the targets: at least 44 px high for a gloved thumb.
          styles={{ label: { minHeight: MIN_TOUCH_TARGET_PX, display: 'flex', alignItems: 'center', justifyContent: 'center' } }}
          data-testid="grid-mode"
        />
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconEraser size={20} />}
            onClick={() => setLevels({})}
            disabled={!Object.keys(levels).length}
          >
            {t('Reset all to default')}
          </Button>
          <Button variant="default" leftSection={<IconRotate size={20} />} onClick={() => setLevels(grid.levels)} disabled={!dirty}>
            {t('Discard')}
          </Button>
          <Button
            leftSection={<IconDeviceFloppy size={20} />}
            onClick={() => save.mutate({ levels })}
            disabled={!dirty}
            loading={save.isPending}
            data-testid="save-feature-access"
          >
            {t('Save')}
          </Button>
        </Group>
      </Group>
      {narrow && (
        <NativeSelect
          label={t('Role')}
          data={grid.roles.map((role) => ({ value: role, label: roleLabel(role) }))}
          value={chosenRole}
          onChange={(e) => setChosenRole(e.currentTarget.value)}
          size="md"
          data-testid="grid-role"
        />
      )}
      <ScrollArea type="auto" offsetScrollbars={!narrow}>
        {/* A role × feature matrix, not a list: a plain table on purpose, not the shared DataTable (no rows to sort, filter or turn into cards). */}
        <Table
          withTableBorder
          withColumnBorders
          verticalSpacing={4}
          horizontalSpacing={6}
          data-testid="feature-grid"
          style={{ width: narrow ? '100%' : 'max-content' }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th style={{ position: 'sticky', left: 0, zIndex: 1, background: 'var(--mantine-color-body)', minWidth: 110 }}>
                {t('Feature')}
              </Table.Th>
              {roles.map((role) => (
                <Table.Th key={role} ta="center" data-role={role} style={{ whiteSpace: 'nowrap' }}>
                  {roleLabel(role)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {grid.features.map((feature) => {
              const { label, action } = featureLabel(feature, t, areas);
              return (
                <Table.Tr key={feature} data-feature={feature}>
                  <Table.Th
                    style={{
                      position: 'sticky',
                      left: 0,
                      zIndex: 1,
                      background: 'var(--mantine-color-body)',
                      fontWeight: action ? 400 : 600,
                    }}
                  >
                    <Box pl={action ? 'md' : 0}>
                      {label}
                      {DEFAULT_NONE.has(feature) && (
                        <Text size="xs" c="dimmed" data-testid="default-admins-only">
                          {t('Admins only by default')}
                        </Text>
                      )}
                    </Box>
                  </Table.Th>
                  {roles.map((role) => (
                    <Table.Td key={role} ta="center" data-role={role} p={4}>
                      <Cell
                        level={levelOf(levels, role, feature)}
                        label={`${label}, ${roleLabel(role)}`}
                        onClick={() => press(role, feature)}
                        onClear={() => setLevels(withLevel(levels, role, feature, null))}
                        width={narrow ? 96 : 72}
                      />
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Text size="sm" c="dimmed">
        {t(
          'A feature is shown when one of an account’s roles (or Everyone) gives Full, hidden when one gives None and none gives Full, and shown by default otherwise. Features marked “Admins only by default” are None by default for every role but the admin roles.',
        )}
      </Text>
    </Stack>
  );
}

/** Feature access: work areas and actions by role, for this site. */
export function FeatureGrid() {
  const { t } = useTranslation();
  const q = useQuery(featureAccessQuery());
  if (q.isError) return <Alert color="red">{t('Feature access could not be loaded.')}</Alert>;
  const grid = q.data?.grid;
  if (!grid) return <Text c="dimmed">{t('Loading…')}</Text>;
  // A fresh editor whenever the saved grid changes (after a save, or another admin's save).
  return <GridEditor key={JSON.stringify(grid)} grid={grid} />;
}
