import { useMemo } from 'react';
import { ActionIcon, Badge, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconDots, IconEdit, IconPackages, IconArchive, IconPrinter } from '@tabler/icons-react';
import { printOrDownload } from '../../../lib/label-printing.ts';
import type { Location } from '@floorhand/contract/locations';
import { DataTable, type DataColumn, type RowAction } from '../../../components/ui/data-table.tsx';

export interface LocationListProps {
  locations: Location[];
  canEdit: boolean;
  onStock(l: Location): void;
  onEdit(l: Location): void;
  onDeactivate(l: Location): void;
}

function Held({ l }: { l: Location }) {
  const { t } = useTranslation();
  const records = l.counts?.records ?? 0;
  if (records === 0)
    return (
      <Text c="dimmed" size="sm">
        {t('Empty')}
      </Text>
    );
  // Records and items, not a quantity: a location holds items of different units of measure.
  return <Text size="sm">{t('Records: {{records}} · items: {{items}}', { records, items: l.counts?.items ?? 0 })}</Text>;
}

function Actions({ l, canEdit, onStock, onEdit, onDeactivate }: { l: Location } & Omit<LocationListProps, 'locations'>) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          size={44}
          variant="subtle"
          aria-label={t('Actions for {{code}}', { code: l.code })}
          data-testid="location-actions"
          onClick={(e) => e.stopPropagation()}
        >
          <IconDots size={22} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
        <Menu.Item leftSection={<IconPackages size={18} />} onClick={() => onStock(l)}>
          {t('Show stock')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconPrinter size={18} />}
          onClick={() => void printOrDownload({ kind: 'loc', source: { locationIds: [l._id] } }).catch(() => undefined)}
          data-testid="location-print-label"
        >
          {t('Print label')}
        </Menu.Item>
        {canEdit && (
          <Menu.Item leftSection={<IconEdit size={18} />} onClick={() => onEdit(l)} data-testid="location-edit">
            {t('Edit')}
          </Menu.Item>
        )}
        {canEdit && l.active && (
          <Menu.Item color="red" leftSection={<IconArchive size={18} />} onClick={() => onDeactivate(l)} data-testid="location-deactivate">
            {t('Deactivate')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** Locations as a table on desktops and as cards on handhelds; a row opens what the location holds. */
export function LocationList(props: LocationListProps) {
  const { t } = useTranslation();
  const { locations, canEdit, onStock, onEdit } = props;
  const columns = useMemo<DataColumn<Location>[]>(
    () => [
      { id: 'warehouse', header: t('Warehouse'), cell: (l) => l.warehouse, sortValue: (l) => l.warehouse },
      {
        id: 'code',
        header: t('Code'),
        sortValue: (l) => l.code,
        cell: (l) => (
          <Group gap={6}>
            <UnstyledButton ff="monospace" fw={600}>
              {l.code}
            </UnstyledButton>
            {!l.active && (
              <Badge color="gray.7" size="sm">
                {t('Inactive')}
              </Badge>
            )}
          </Group>
        ),
      },
      { id: 'description', header: t('Description'), cell: (l) => l.description, sortValue: (l) => l.description },
      { id: 'type', header: t('Type'), cell: (l) => l.type, sortValue: (l) => l.type },
      { id: 'holds', header: t('Holds'), cell: (l) => <Held l={l} />, sortValue: (l) => l.counts?.records ?? 0 },
    ],
    [t],
  );
  // On a card the menu holds Edit too; the table shows it as a button beside the menu.
  const actions: RowAction<Location>[] = [
    { id: 'edit', label: () => t('Edit'), onClick: onEdit, allowed: canEdit, testId: 'location-edit-button' },
    { id: 'menu', label: () => t('Actions'), onClick: onStock, render: (l) => <Actions l={l} {...props} /> },
  ];
  return (
    <DataTable
      rows={locations}
      columns={columns}
      rowKey={(l) => l._id}
      rowAttrs={(l) => ({ 'data-testid': 'location-row', 'data-code': l.code, 'data-warehouse': l.warehouse })}
      rowStyle={(l) => ({ opacity: l.active ? 1 : 0.6 })}
      onRowClick={onStock}
      actions={actions}
      testId="location-list"
      tableProps={{ verticalSpacing: 4 }}
      renderCard={(l) => (
        <Group wrap="nowrap" gap="xs">
          <UnstyledButton onClick={() => onStock(l)} style={{ flex: 1, minWidth: 0, minHeight: 44 }}>
            <Group gap={6} wrap="nowrap">
              <Text fw={700} ff="monospace" truncate>
                {l.code}
              </Text>
              <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                {l.warehouse}
              </Badge>
              {!l.active && (
                <Badge color="gray.7" size="sm" style={{ flexShrink: 0 }}>
                  {t('Inactive')}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed" truncate>
              {[l.description, l.type].filter(Boolean).join(' · ')}
            </Text>
            <Held l={l} />
          </UnstyledButton>
          <Actions l={l} {...props} />
        </Group>
      )}
    />
  );
}
