import { useState } from 'react';
import { Badge, Button, Card, Group, ScrollArea, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconPlus } from '@tabler/icons-react';
import { workstationIdSchema, type WorkstationRow } from '@floorhand/contract/admin';
import { adminKeys, useCallMutation, workstationsQuery } from '../../lib/admin-api.ts';
import { useMachineStore } from '../../lib/machine-store.ts';

const when = (iso: string) => new Date(iso).toLocaleString();

type Auth = { timeclock: boolean; kiosk: boolean };

/** The two authorisations of a workstation; they move at once and go back if the server refuses. */
function Toggles({ ws, onChange, busy }: { ws: WorkstationRow; onChange: (p: Auth, undo: () => void) => void; busy: boolean }) {
  const { t } = useTranslation();
  const [local, setLocal] = useState<Auth>({ timeclock: ws.timeclock, kiosk: ws.kiosk });
  const change = (next: Auth) => {
    setLocal(next);
    onChange(next, () => setLocal({ timeclock: ws.timeclock, kiosk: ws.kiosk }));
  };
  return (
    <Group gap="lg" wrap="nowrap">
      <Switch label={t('Time clock')} checked={local.timeclock} disabled={busy} onChange={(e) => change({ ...local, timeclock: e.currentTarget.checked })} data-testid={`ws-timeclock-${ws.id}`} />
      <Switch label={t('Kiosk')} checked={local.kiosk} disabled={busy} onChange={(e) => change({ ...local, kiosk: e.currentTarget.checked })} data-testid={`ws-kiosk-${ws.id}`} />
    </Group>
  );
}

/** Workstations seen at login on this site; an admin authorises them as time clock or kiosk. */
export function WorkstationsAdmin() {
  const { t } = useTranslation();
  const thisDevice = useMachineStore((s) => s.workstation.id);
  const list = useQuery(workstationsQuery());
  const [newId, setNewId] = useState('');
  const update = useCallMutation('admin/workstation/update', { invalidate: [adminKeys.workstations], done: t('The workstation is saved') });
  const set = (id: string, p: Auth, undo: () => void) => update.mutate({ id, ...p }, { onError: undo });
  const idError = newId && !workstationIdSchema.safeParse(newId).success ? t('Use 1 to 40 letters, digits, - or _, starting and ending with a letter or digit') : null;
  const rows = list.data?.workstations ?? [];
  const here = (id: string) =>
    id === thisDevice && (
      <Badge size="sm" variant="light" ml={6}>
        {t('this device')}
      </Badge>
    );

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('A time-clock or kiosk account may only be used on a workstation authorised for it; the change applies at the next login there. Each device shows its id under App Settings.')}
      </Text>
      <ScrollArea visibleFrom="sm" type="auto">
        <Table verticalSpacing="sm" highlightOnHover data-testid="workstations-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Workstation')}</Table.Th>
              <Table.Th>{t('Last seen')}</Table.Th>
              <Table.Th>{t('Last account')}</Table.Th>
              <Table.Th>{t('Authorised as')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((ws) => (
              <Table.Tr key={ws.id} data-ws={ws.id}>
                <Table.Td fw={600}>
                  {ws.id}
                  {here(ws.id)}
                </Table.Td>
                <Table.Td>{when(ws.lastSeen)}</Table.Td>
                <Table.Td>{ws.lastUserName ?? '—'}</Table.Td>
                <Table.Td>
                  <Toggles key={`${ws.timeclock}${ws.kiosk}`} ws={ws} busy={update.isPending} onChange={(p, undo) => set(ws.id, p, undo)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Stack hiddenFrom="sm" gap="xs">
        {rows.map((ws) => (
          <Card key={ws.id} withBorder padding="sm" data-ws={ws.id}>
            <Text fw={600}>
              {ws.id}
              {here(ws.id)}
            </Text>
            <Text size="sm" c="dimmed">
              {when(ws.lastSeen)} · {ws.lastUserName ?? '—'}
            </Text>
            <Toggles key={`${ws.timeclock}${ws.kiosk}`} ws={ws} busy={update.isPending} onChange={(p, undo) => set(ws.id, p, undo)} />
          </Card>
        ))}
      </Stack>
      {!list.isPending && rows.length === 0 && <Text c="dimmed">{t('No workstation has logged in yet.')}</Text>}
      <Card withBorder>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ id: newId, timeclock: false, kiosk: false }, { onSuccess: () => setNewId('') });
          }}
        >
          <Group align="flex-start" wrap="wrap">
            <TextInput label={t('Add a workstation id not seen yet')} value={newId} error={idError} maxLength={40} onChange={(e) => setNewId(e.currentTarget.value.trim())} style={{ flex: 1, minWidth: 200 }} />
            <Button type="submit" mt={{ base: 0, xs: 26 }} leftSection={<IconPlus size={20} />} disabled={!newId || !!idError}>
              {t('Add')}
            </Button>
          </Group>
        </form>
      </Card>
    </Stack>
  );
}
