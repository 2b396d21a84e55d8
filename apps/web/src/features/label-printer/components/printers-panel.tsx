import { Alert, Badge, Button, Checkbox, Group, Loader, NumberInput, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconPrinter, IconTestPipe } from '@tabler/icons-react';
import { LABEL_COPIES_MAX, type LabelAgent, type PrinterState } from '@floorhand/contract/labels';
import { useMachineStore } from '../../../lib/machine-store.ts';
import { useAgents } from '../api/agents.ts';
import { usePrint } from '../api/jobs.ts';
import { AddAgentButton, RevokeAgentButton } from './agent-admin.tsx';
import { showTimestamp } from '../../../lib/inventory-format.ts';
import { tk } from '@floorhand/contract/i18n';

export const STATE_COLOURS = new Map<PrinterState, string>([
  ['online', 'green'],
  ['paused', 'yellow'],
  ['paperOut', 'red'],
  ['headOpen', 'red'],
  ['ribbonOut', 'red'],
  ['unreachable', 'gray'],
  ['unknown', 'gray'],
]);
const STATE_WORDS = new Map<PrinterState, string>([
  ['online', tk('Online')],
  ['paused', tk('Paused')],
  ['paperOut', tk('Paper out')],
  ['headOpen', tk('Head open')],
  ['ribbonOut', tk('Ribbon out')],
  ['unreachable', tk('Unreachable')],
  ['unknown', tk('Unknown')],
]);

/**
 * The agents of the site with their printers, this device's choice of agents and its copies; for
 * administrators (`canManage`) "Add agent" and "Revoke".
 */
export function PrintersPanel({ canManage = false }: { canManage?: boolean }) {
  const { t } = useTranslation();
  const agents = useAgents();
  const settings = useMachineStore((s) => s.labelPrinter);
  const save = useMachineStore((s) => s.save);
  const print = usePrint();
  const list = agents.data?.agents ?? [];

  const toggleAgent = (agentId: string, on: boolean) => {
    const next = on ? [...new Set([...settings.agents, agentId])] : settings.agents.filter((a) => a !== agentId);
    save({ labelPrinter: { ...settings, agents: next } });
  };
  const testPrint = async (printerId: string, name: string) => {
    try {
      await print.mutateAsync({ idempotencyKey: crypto.randomUUID(), kind: 'stock', printerId, copies: 1, source: { test: true } });
      notifications.show({
        closeButtonProps: { 'aria-label': t('Close') },
        color: 'blue',
        message: t('Test label sent to {{printer}}', { printer: name }),
      });
    } catch {
      // The error dialog has said why.
    }
  };

  return (
    <Stack gap="sm">
      <Paper withBorder p="sm">
        <Group align="flex-end" gap="md" wrap="wrap">
          <NumberInput
            label={t('Copies of each label')}
            min={1}
            max={LABEL_COPIES_MAX}
            value={settings.copies}
            onChange={(v) => save({ labelPrinter: { ...settings, copies: Math.min(LABEL_COPIES_MAX, Math.max(1, Number(v) || 1)) } })}
            size="md"
            w={200}
            data-testid="label-copies"
          />
          <Text size="sm" c="dimmed" style={{ flex: '1 1 240px' }}>
            {settings.agents.length
              ? t('This device prints on the printers of the agents ticked below.')
              : t('No agent is ticked: this device prints on the first printer attached to the site.')}
          </Text>
          {canManage && <AddAgentButton />}
        </Group>
      </Paper>
      {agents.isPending && <Loader />}
      {!agents.isPending && list.length === 0 && (
        <Alert color="dark" data-testid="no-agents">
          {t(
            'No print agent has been added to this site yet. An administrator adds one (Add agent) and runs the print agent next to the printers with the key it shows (docs/labels.md).',
          )}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {list.map((agent) => (
          <AgentCard
            key={agent.agentId}
            agent={agent}
            canManage={canManage}
            used={settings.agents.includes(agent.agentId)}
            onUse={(on) => toggleAgent(agent.agentId, on)}
            onTest={(id, name) => void testPrint(id, name)}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function AgentCard({
  agent,
  canManage,
  used,
  onUse,
  onTest,
}: {
  agent: LabelAgent;
  canManage: boolean;
  used: boolean;
  onUse(on: boolean): void;
  onTest(printerId: string, name: string): void;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm" data-testid="agent-card" data-agent={agent.agentId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Text fw={700}>{agent.name}</Text>
          <Badge color={agent.connected ? 'green' : 'gray'} data-testid="agent-connection">
            {agent.connected ? t('Connected') : t('Offline since {{at}}', { at: showTimestamp(agent.lastSeen) })}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed" data-testid="agent-id-line">
          {agent.agentId}
          {agent.createdBy && agent.createdAt
            ? ` · ${t('added by {{who}} on {{at}}', { who: agent.createdBy, at: showTimestamp(agent.createdAt) })}`
            : ''}
        </Text>
        {agent.paired === false && (
          <Alert color="yellow" p="xs" data-testid="agent-unpaired">
            {t(
              'This agent has no key of its own and cannot connect. Add an agent with the id {{id}} and put its key in the agent’s config.',
              { id: agent.agentId },
            )}
          </Alert>
        )}
        {agent.note && (
          <Text size="sm" c={agent.connected ? 'orange.9' : 'dimmed'} data-testid="agent-note">
            {agent.connected && agent.note.startsWith('took over')
              ? t('Took over from an older connection: two copies of this agent may be running.')
              : agent.note}
          </Text>
        )}
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Checkbox
            label={t('Use on this device')}
            checked={used}
            onChange={(e) => onUse(e.currentTarget.checked)}
            data-testid="use-agent"
          />
          {canManage && (agent.paired === false ? <AddAgentButton suggestedId={agent.agentId} /> : <RevokeAgentButton agent={agent} />)}
        </Group>
        {agent.printers.map((p) => (
          <Group key={p.id} justify="space-between" wrap="wrap" gap="xs" data-testid="printer-row" data-printer={p.id}>
            <Group gap="xs">
              <IconPrinter size={20} aria-hidden />
              <Text>{p.name}</Text>
              <Badge color={agent.connected ? (STATE_COLOURS.get(p.state) ?? 'gray') : 'gray'} data-testid="printer-state" title={p.detail}>
                {agent.connected ? t(STATE_WORDS.get(p.state) ?? p.state) : t('Agent offline')}
              </Badge>
            </Group>
            <Button
              variant="default"
              leftSection={<IconTestPipe size={18} />}
              onClick={() => onTest(p.id, p.name)}
              disabled={!agent.connected}
              data-testid="test-print"
            >
              {t('Test print')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
