import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isOperationKind, type Task } from '@floorhand/contract/labor';

/** A task as the floor reads it: code, kind, order and operation, description, work centre. */
export function TaskLine({ task }: { task: Pick<Task, 'taskCode' | 'kind' | 'orderNumber' | 'operationNumber' | 'description'> & { workCentre?: string | null } }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        <Text fw={700} ff="monospace">
          {task.taskCode}
        </Text>
        <Text size="sm" fw={600} data-testid="task-order">
          {isOperationKind(task.kind) ? `${task.kind.toUpperCase()} ${task.orderNumber ?? ''} / ${task.operationNumber ?? ''}` : t(task.kind)}
        </Text>
      </Group>
      <Text size="sm">
        {task.description}
        {task.workCentre ? ` · ${task.workCentre}` : ''}
      </Text>
    </Stack>
  );
}
