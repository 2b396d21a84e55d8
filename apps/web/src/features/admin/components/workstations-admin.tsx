import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconLink, IconPlus, IconTrash } from '@tabler/icons-react';
import { pairCodeSchema, workstationIdSchema, type WorkstationRow } from '@floorhand/contract/site-admin';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { DataTable, type DataColumn, type RowAction } from '../../../components/ui/data-table.tsx';
import { useRemoveWorkstation } from '../api/remove-workstation.ts';
import { useUpdateWorkstation } from '../api/update-workstation.ts';
import { usePairWorkstation } from '../api/pair-workstation.ts';
import { workstationsQuery } from '../api/list-workstations.ts';
import { useMachineStore } from '../../../lib/machine-store.ts';
import { showTimestamp } from '../../../lib/inventory-format.ts';

const when = (iso: string) => showTimestamp(iso);

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
      <Switch
        label={t('Time clock')}
        checked={local.timeclock}
        disabled={busy}
        onChange={(e) => change({ ...local, timeclock: e.currentTarget.checked })}
        data-testid={`ws-timeclock-${ws.id}`}
      />
      <Switch
        label={t('Kiosk')}
        checked={local.kiosk}
        disabled={busy}
        onChange={(e) => change({ ...local, kiosk: e.currentTarget.checked })}
        data-testid={`ws-kiosk-${ws.id}`}
      />
    </Group>
  );
}

/** Whether a workstation row matches what the admin typed in the search box (id or last account). */
export const matchesSearch = (ws: WorkstationRow, search: string): boolean => {
  const q = search.trim().toLowerCase();
  return !q || ws.id.toLowerCase().includes(q) || (ws.lastUserName ?? '').toLowerCase().includes(q);
};

/** An administrator enters the code another device shows (App Settings, Pair this device). */
function PairByCode() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [auth, setAuth] = useState<Auth>({ timeclock: false, kiosk: true });
  const pair = usePairWorkstation({
    done: t('The device is paired'),
    // The code's id is already an authorised device: replacing it is a decision, with its details.
    confirmReplace: async (held) =>
      (await dialogs.confirm({
        type: 'warn',
        title: t('Replace this device?'),
        message: t(
          'Workstation {{id}} is already an authorised device: last account {{user}}, last seen {{seen}}. Pairing this code moves its authorisation to the device showing the code; that device loses its kiosk and time-clock rights.',
          {
            id: held.workstationId,
            user: held.lastUserName ?? '—',
            seen: when(held.lastSeen),
          },
        ),
        neg: t('Cancel'),
        pos: t('Replace this device'),
        focus: 'neg',
      })) === 'pos',
  });
  const codeError = code && !pairCodeSchema.safeParse(code).success ? t('Six letters and digits, as the device shows them') : null;
  return (
    <Card withBorder data-testid="pair-by-code">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          pair.mutate({ code, ...auth }, { onSuccess: (res) => res && setCode('') });
        }}
      >
        <Stack gap="xs">
          <Group align="flex-start" wrap="wrap">
            <TextInput
              label={t('Pairing code shown by a device')}
              description={t('Under App Settings on that device: Pair this device')}
              value={code}
              error={codeError}
              maxLength={12}
              autoCapitalize="characters"
              autoComplete="off"
              onChange={(e) => setCode(e.currentTarget.value)}
              style={{ flex: 1, minWidth: 200 }}
              data-testid="pair-code-input"
            />
          </Group>
          <Group gap="lg">
            <Switch
              label={t('Time clock')}
              checked={auth.timeclock}
              onChange={(e) => setAuth({ ...auth, timeclock: e.currentTarget.checked })}
            />
            <Switch label={t('Kiosk')} checked={auth.kiosk} onChange={(e) => setAuth({ ...auth, kiosk: e.currentTarget.checked })} />
            <Button
              type="submit"
              leftSection={<IconLink size={20} />}
              disabled={!code || !!codeError || pair.isPending}
              data-testid="pair-submit"
            >
              {t('Pair')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** Workstations seen at login on this site; an admin authorises them as time clock or kiosk. */
export function WorkstationsAdmin() {
  const { t } = useTranslation();
  const thisDevice = useMachineStore((s) => s.workstation.id);
  const list = useQuery(workstationsQuery());
  const [newId, setNewId] = useState('');
  const update = useUpdateWorkstation({
    done: t('The workstation is saved'),
    // Authorised from this very device: it keeps the secret the server answered.
    onSuccess: (res) => {
      const machine = useMachineStore.getState();
      if (res.workstation?.id === machine.workstation.id && (res.secret || (!res.workstation.kiosk && !res.workstation.timeclock))) {
        machine.save({ workstation: { ...machine.workstation, secret: res.secret } });
      }
    },
  });
  const remove = useRemoveWorkstation({ done: t('The workstation is removed') });
  const set = (id: string, p: Auth, undo: () => void) => update.mutate({ id, ...p, thisDevice: id === thisDevice }, { onError: undo });
  const drop = async (id: string) => {
    if (await dialogs.confirmDelete(t('the workstation {{id}} (it can log in again, unauthorised)', { id }))) remove.mutate({ id });
  };
  const idError =
    newId && !workstationIdSchema.safeParse(newId).success
      ? t('Use 1 to 40 letters, digits, - or _, starting and ending with a letter or digit')
      : null;
  const all = list.data?.workstations ?? [];
  const here = (id: string) =>
    id === thisDevice && (
      <Badge size="sm" variant="light" ml={6}>
        {t('this device')}
      </Badge>
    );
  const removeButton = (id: string) => (
    <ActionIcon
      variant="subtle"
      color="red"
      size={44}
      onClick={() => void drop(id)}
      disabled={remove.isPending}
      aria-label={t('Remove workstation {{id}}', { id })}
      data-testid={`ws-remove-${id}`}
    >
      <IconTrash size={20} />
    </ActionIcon>
  );
  const toggles = (ws: WorkstationRow) => (
    <Toggles key={`${ws.timeclock}${ws.kiosk}`} ws={ws} busy={update.isPending} onChange={(p, undo) => set(ws.id, p, undo)} />
  );
  // The cells read the mutations' state: the columns are made again when it changes.
  const columns: DataColumn<WorkstationRow>[] = [
    {
      id: 'id',
      header: t('Workstation'),
      sortValue: (ws) => ws.id,
      tdProps: { fw: 600 },
      cell: (ws) => (
        <>
          {ws.id}
          {here(ws.id)}
        </>
      ),
    },
    { id: 'lastSeen', header: t('Last seen'), cell: (ws) => when(ws.lastSeen), sortValue: (ws) => ws.lastSeen },
    { id: 'lastUser', header: t('Last account'), cell: (ws) => ws.lastUserName ?? '—', sortValue: (ws) => ws.lastUserName },
    { id: 'auth', header: t('Authorised as'), cell: toggles },
  ];
  const actions: RowAction<WorkstationRow>[] = [
    { id: 'remove', label: () => t('Remove'), onClick: (ws) => void drop(ws.id), render: (ws) => removeButton(ws.id) },
  ];

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t(
          'A time-clock or kiosk account may only be used on a workstation authorised for it, and only from the device that holds its key: authorise a device from itself, or pair it by the code it shows under App Settings. The change applies at the next login there.',
        )}
      </Text>
      <PairByCode />
      <DataTable
        rows={all}
        columns={columns}
        rowKey={(ws) => ws.id}
        rowAttrs={(ws) => ({ 'data-ws': ws.id })}
        actions={actions}
        actionsHeader={t('Remove')}
        filter={{ label: t('Search workstations'), placeholder: t('Search by id or account'), testId: 'ws-search', match: matchesSearch }}
        testId="workstations-table"
        loading={list.isPending}
        empty={t('No workstation has logged in yet.')}
        emptyFiltered={t('No workstation matches the search.')}
        renderCard={(ws) => (
          <>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>
                {ws.id}
                {here(ws.id)}
              </Text>
              {removeButton(ws.id)}
            </Group>
            <Text size="sm" c="dimmed">
              {when(ws.lastSeen)} · {ws.lastUserName ?? '—'}
            </Text>
            {toggles(ws)}
          </>
        )}
      />
      <Card withBorder>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ id: newId, timeclock: false, kiosk: false }, { onSuccess: () => setNewId('') });
          }}
        >
          <Group align="flex-start" wrap="wrap">
            <TextInput
              label={t('Add a workstation id not seen yet')}
              value={newId}
              error={idError}
              maxLength={40}
              onChange={(e) => setNewId(e.currentTarget.value.trim())}
              style={{ flex: 1, minWidth: 200 }}
            />
            <Button type="submit" mt={{ base: 0, xs: 26 }} leftSection={<IconPlus size={20} />} disabled={!newId || !!idError}>
              {t('Add')}
            </Button>
          </Group>
        </form>
      </Card>
    </Stack>
  );
}
