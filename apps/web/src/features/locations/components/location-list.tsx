import { ActionIcon, Badge, Button, Card, Group, Menu, ScrollArea, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconDots, IconEdit, IconPackages, IconArchive } from '@tabler/icons-react';
import type { Location } from '@floorhand/contract/locations';
import { useNarrow } from '../../../lib/use-narrow.ts';

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
  if (records === 0) return <Text c="dimmed" size="sm">{t('Empty')}</Text>;
  // Records and items, not a quantity: a location holds items of different units of measure.
  return <Text size="sm">{t('Records: {{records}} · items: {{items}}', { records, items: l.counts?.items ?? 0 })}</Text>;
}

function Actions({ l, canEdit, onStock, onEdit, onDeactivate }: { l: Location } & Omit<LocationListProps, 'locations'>) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon size={44} variant="subtle" aria-label={t('Actions for {{code}}', { code: l.code })} data-testid="location-actions" onClick={(e) => e.stopPropagation()}>
          <IconDots size={22} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
        <Menu.Item leftSection={<IconPackages size={18} />} onClick={() => onStock(l)}>
          {t('Show stock')}
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
  const narrow = useNarrow();
  const { locations, onStock } = props;
  if (narrow) {
    return (
      <Stack gap="xs" data-testid="location-list">
        {locations.map((l) => (
          <Card key={l._id} withBorder padding="xs" data-testid="location-row" data-code={l.code} data-warehouse={l.warehouse} style={{ opacity: l.active ? 1 : 0.6 }}>
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
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <ScrollArea type="auto">
      <Table highlightOnHover verticalSpacing={4} data-testid="location-list">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Warehouse')}</Table.Th>
            <Table.Th>{t('Code')}</Table.Th>
            <Table.Th>{t('Description')}</Table.Th>
            <Table.Th>{t('Type')}</Table.Th>
            <Table.Th>{t('Holds')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {locations.map((l) => (
            <Table.Tr key={l._id} data-testid="location-row" data-code={l.code} data-warehouse={l.warehouse} style={{ cursor: 'pointer', opacity: l.active ? 1 : 0.6 }} onClick={() => onStock(l)}>
              <Table.Td>{l.warehouse}</Table.Td>
              <Table.Td>
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
              </Table.Td>
              <Table.Td>{l.description}</Table.Td>
              <Table.Td>{l.type}</Table.Td>
              <Table.Td>
                <Held l={l} />
              </Table.Td>
              <Table.Td ta="right" onClick={(e) => e.stopPropagation()}>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  {props.canEdit && (
                    <Button size="xs" variant="light" onClick={() => props.onEdit(l)} data-testid="location-edit-button">
                      {t('Edit')}
                    </Button>
                  )}
                  <Actions l={l} {...props} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
