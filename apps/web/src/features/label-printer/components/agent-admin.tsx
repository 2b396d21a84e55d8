import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { IconCopy, IconPlus, IconPlugConnectedX } from '@tabler/icons-react';
import { agentIdSchema, type LabelAgent } from '@floorhand/contract/labels';
import { UI_BREAKPOINTS } from '@floorhand/contract/constants';
import type { ServerErr } from '@floorhand/contract/errors';
import { dialogs } from '../../../components/dialogs/dialog-store.ts';
import { useSiteStore } from '../../../lib/site-store.ts';
import { useCreateAgent, useRevokeAgent } from '../api/agents.ts';

// Administrators add print agents (each gets a key of its own, shown once with a config snippet) and
// revoke them (the agent's connection ends at once); docs/labels.md, Agent credentials.

/** The agent's config file with its key, as the operator puts it next to the printers. */
export function agentConfigSnippet(server: string, siteId: string, agentId: string, name: string, agentKey: string): string {
  return JSON.stringify(
    {
      server,
      siteId,
      agentKey,
      agentId,
      name,
      queueFile: `${agentId}.queue.json`,
      printers: [{ id: 'zebra', name: 'Zebra', host: '192.0.2.10', port: 9100 }],
    },
    null,
    2,
  );
}

function CopyValue({ value, label, testId }: { value: string; label: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button variant="default" onClick={copy} leftSection={<IconCopy size={16} />} data-testid={testId}>
          {copied ? t('Copied') : label}
        </Button>
      )}
    </CopyButton>
  );
}

/** "Add agent": an id and a name; then the key, once, with a copy button and the config snippet. */
export function AddAgentButton({ suggestedId }: { suggestedId?: string }) {
  const { t } = useTranslation();
  const narrow = useMediaQuery(`(max-width: ${UI_BREAKPOINTS.sm}px)`);
  const siteId = useSiteStore((s) => s.siteId) ?? '';
  const create = useCreateAgent();
  const [open, setOpen] = useState(false);
  const [agentId, setAgentId] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string>();
  const [made, setMade] = useState<{ agentId: string; name: string; key: string }>();

  const start = () => {
    setAgentId(suggestedId ?? '');
    setName('');
    setProblem(undefined);
    setMade(undefined);
    setOpen(true);
  };
  const idProblem =
    agentId && !agentIdSchema.safeParse(agentId).success ? t('Letters, digits, dots, underscores or hyphens (up to 60)') : undefined;
  const submit = async () => {
    setProblem(undefined);
    try {
      const res = await create.mutateAsync({ agentId, name: name.trim() || agentId });
      setMade({ agentId, name: name.trim() || agentId, key: res.agentKey ?? '' });
    } catch (e) {
      setProblem((e as { err?: ServerErr }).err?.message ?? t('The agent was not added'));
    }
  };
  const snippet = made ? agentConfigSnippet(window.location.origin, siteId, made.agentId, made.name, made.key) : '';

  return (
    <>
      <Button leftSection={<IconPlus size={18} />} onClick={start} data-testid="add-agent">
        {t('Add agent')}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={made ? t('Agent {{id}} added', { id: made.agentId }) : t('Add a print agent')}
        fullScreen={!!narrow}
        size="lg"
      >
        {!made ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <Stack gap="sm">
              <TextInput
                label={t('Agent id')}
                description={t('As in the agent’s config, e.g. dock-1')}
                value={agentId}
                onChange={(e) => setAgentId(e.currentTarget.value)}
                error={idProblem}
                required
                data-autofocus
                data-testid="agent-id"
              />
              <TextInput
                label={t('Name')}
                description={t('What people see, e.g. Dock printers')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                maxLength={100}
                data-testid="agent-name"
              />
              {problem && (
                <Alert color="red" data-testid="add-agent-problem">
                  {problem}
                </Alert>
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setOpen(false)}>
                  {t('Cancel')}
                </Button>
                <Button type="submit" loading={create.isPending} disabled={!agentId || !!idProblem} data-testid="add-agent-submit">
                  {t('Add agent')}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Stack gap="sm" data-testid="agent-key-shown">
            <Alert color="yellow">
              {t(
                'This key is shown once: the server keeps only its fingerprint. Copy it into the agent’s config now; if it is lost, revoke the agent and add it again.',
              )}
            </Alert>
            <Text size="sm" fw={600}>
              {t('Agent key')}
            </Text>
            <Group gap="xs" wrap="nowrap" align="center">
              <Code data-testid="agent-key" style={{ wordBreak: 'break-all', fontSize: 15, flex: 1 }}>
                {made.key}
              </Code>
              <CopyValue value={made.key} label={t('Copy key')} testId="copy-agent-key" />
            </Group>
            <Text size="sm" fw={600}>
              {t('Config file (print-agent.json): set your printers')}
            </Text>
            <Code block data-testid="agent-config" style={{ fontSize: 13, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {snippet}
            </Code>
            <Group justify="space-between" wrap="wrap">
              <CopyValue value={snippet} label={t('Copy config')} testId="copy-agent-config" />
              <Button onClick={() => setOpen(false)} data-testid="agent-key-done">
                {t('Done')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}

/** "Revoke": after a confirmation, the agent's key stops working and its connection ends at once. */
export function RevokeAgentButton({ agent }: { agent: LabelAgent }) {
  const { t } = useTranslation();
  const revoke = useRevokeAgent();
  const ask = async () => {
    const answer = await dialogs.confirm({
      type: 'warn',
      title: t('Revoke {{name}}?', { name: agent.name }),
      message: t(
        'The agent’s key stops working and its connection ends at once; its printers leave every device’s list and its unprinted jobs fail. To use it again, add it again and give it the new key.',
      ),
      neg: t('Cancel'),
      pos: t('Revoke'),
      focus: 'neg',
    });
    if (answer !== 'pos') return;
    try {
      await revoke.mutateAsync({ agentId: agent.agentId });
    } catch {
      // The error dialog has said why.
    }
  };
  return (
    <Button
      variant="default"
      color="red"
      leftSection={<IconPlugConnectedX size={18} />}
      onClick={() => void ask()}
      loading={revoke.isPending}
      data-testid="revoke-agent"
    >
      {t('Revoke')}
    </Button>
  );
}
