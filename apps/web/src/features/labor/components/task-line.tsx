import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isOperationKind, type Task } from '@floorhand/contract/labor';

/** A task as the floor reads it: code, kind, order and operation, description, work centre. */
export function TaskLine({
  task,
}: {
  task: Pick<Task, 'taskCode' | 'kind' | 'orderNumber' | 'operationNumber' | 'description'> & {
    workCentre?: string | null;
    unchecked?: boolean;
  };
}) {
  const { t } = useTranslation();
  // A task started offline by its code alone (issue 27): its code, and that the server checks it.
  if (task.unchecked) {
    return (
      <Stack gap={2}>
        <Text fw={700} ff="monospace">
          {task.taskCode}
        </Text>
        <Text size="sm">{task.description}</Text>
      </Stack>
    );
  }
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        <Text fw={700} ff="monospace">
          {task.taskCode}
        </Text>
        <Text size="sm" fw={600} data-testid="task-order">
          {isOperationKind(task.kind)
            ? `${task.kind.toUpperCase()} ${task.orderNumber ?? ''} / ${task.operationNumber ?? ''}`
            : t(task.kind)}
        </Text>
      </Group>
      <Text size="sm">
        {task.description}
        {task.workCentre ? ` · ${task.workCentre}` : ''}
      </Text>
    </Stack>
  );
}
