import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Card, Group, Modal, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { roleNameSchema, type Role } from '@floorhand/contract/roles';
import { isOrgAdmin } from '@floorhand/contract/perms';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { useCreateRole } from '../api/create-role.ts';
import { useRemoveRole } from '../api/remove-role.ts';
import { useRenameRole } from '../api/rename-role.ts';
import { useRoles } from '../../../lib/roles.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { tk } from '@floorhand/contract/i18n';

/** What the built-in roles are for, when the organisation gave them no description of its own. */
const BUILT_IN_PURPOSE: Record<string, string> = {
  orgAdmin: tk('Administers the whole organisation: accounts, roles and every site'),
  siteAdmin: tk('Administers this site: feature access, settings, brand, workstations and its accounts'),
  timeclockAdmin: tk('Uses the time clock anywhere and corrects punches'),
};

const nameError = (name: string): string | null =>
  name && !roleNameSchema.safeParse(name).success ? tk('Letters, digits and underscores; start and end with a letter or digit') : null;

function RenameDialog({ role, onClose }: { role: Role; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(role.name);
  const [description, setDescription] = useState(role.description);
  const rename = useRenameRole({ done: t('The role is saved'), onSuccess: onClose });
  const error = nameError(name);
  return (
    <Modal opened onClose={onClose} title={t('Role {{name}}', { name: role.name })}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          rename.mutate({ name: role.name, newName: name, description });
        }}
      >
        <Stack>
          <TextInput
            label={t('Name')}
            value={name}
            error={error && t(error)}
            maxLength={40}
            onChange={(e) => setName(e.currentTarget.value.trim())}
            data-testid="role-new-name"
            data-autofocus
          />
          <TextInput label={t('Description')} value={description} maxLength={200} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Text size="sm" c="dimmed">
            {t('Renaming keeps the role on every account and in feature access.')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" disabled={!name || !!error} loading={rename.isPending}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RoleCard({ role, canManage, onRename }: { role: Role; canManage: boolean; onRename: () => void }) {
  const { t } = useTranslation();
  const remove = useRemoveRole({ done: t('The role is removed') });
  const holders = [...new Map(role.holders.map((h) => [h.accountId, h])).values()];
  return (
    <Card withBorder data-role={role.name}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Group gap={6}>
              <Text fw={700}>{role.name}</Text>
              {role.builtIn && (
                <Badge size="sm" color="gray.7">
                  {t('built-in')}
                </Badge>
              )}
            </Group>
            {(role.description || BUILT_IN_PURPOSE[role.name]) && (
              <Text size="sm" c="dimmed">
                {role.description || t(BUILT_IN_PURPOSE[role.name]!)}
              </Text>
            )}
          </div>
          {canManage && !role.builtIn && (
            <Group gap={4} wrap="nowrap">
              <Tooltip label={t('Rename')}>
                <ActionIcon variant="subtle" size={44} onClick={onRename} aria-label={t('Rename {{name}}', { name: role.name })}>
                  <IconPencil size={20} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('Remove')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size={44}
                  aria-label={t('Remove {{name}}', { name: role.name })}
                  onClick={async () => {
                    const what = holders.length
                      ? t("the role '{{name}}' ({{n}} account(s) lose it)", { name: role.name, n: holders.length })
                      : t("the role '{{name}}'", { name: role.name });
                    if (await dialogs.confirmDelete(what)) remove.mutate({ name: role.name });
                  }}
                >
                  <IconTrash size={20} />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>
        <Group gap={4} data-testid="role-holders">
          {holders.length ? (
            holders.map((h) => (
              <Badge key={h.accountId} variant="light" tt="none" color={h.active ? undefined : 'dark'} title={h.fullName}>
                {h.userName}
              </Badge>
            ))
          ) : (
            <Text size="sm" c="dimmed">
              {t('Nobody holds this role.')}
            </Text>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

/** Account Roles: the built-in roles and the organisation's own, and who holds each. */
export function RolesPage() {
  const { t } = useTranslation();
  const perms = useSessionStore((s) => s.perms);
  const canManage = !!perms && isOrgAdmin(perms);
  const roles = useRoles();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [renaming, setRenaming] = useState<Role | null>(null);
  const create = useCreateRole({
    done: t('The role is created'),
    onSuccess: () => {
      setName('');
      setDescription('');
    },
  });
  const error = nameError(name);
  return (
    <Stack maw={1100}>
      {canManage ? (
        <Card withBorder>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate({ name, description });
            }}
          >
            <Stack gap="xs">
              <Title order={2} size="h4">
                {t('New role')}
              </Title>
              <Group align="flex-start" wrap="wrap">
                <TextInput
                  label={t('Name')}
                  value={name}
                  error={error && t(error)}
                  maxLength={40}
                  onChange={(e) => setName(e.currentTarget.value.trim())}
                  style={{ flex: 1, minWidth: 180 }}
                  data-testid="role-name"
                />
                <TextInput
                  label={t('Description')}
                  value={description}
                  maxLength={200}
                  onChange={(e) => setDescription(e.currentTarget.value)}
                  style={{ flex: 2, minWidth: 200 }}
                />
              </Group>
              <Group>
                <Button
                  type="submit"
                  leftSection={<IconPlus size={20} />}
                  disabled={!name || !!error}
                  loading={create.isPending}
                  data-testid="create-role"
                >
                  {t('Create role')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
      ) : (
        <Alert color="blue">
          {t(
            'Roles belong to the whole organisation: organisation administrators create, rename and remove them. You assign them under Accounts.',
          )}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="roles">
        {roles.data?.roles?.map((r) => (
          <RoleCard key={r.name} role={r} canManage={canManage} onRename={() => setRenaming(r)} />
        ))}
      </SimpleGrid>
      {renaming && <RenameDialog role={renaming} onClose={() => setRenaming(null)} />}
    </Stack>
  );
}
