import { Button, Group, ScrollArea, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconHistory } from '@tabler/icons-react';

export interface MruChipsProps {
  values: readonly string[];
  onPick(value: string): void;
  testId?: string;
}

/**
 * The most recently used values (newest first) as buttons that repeat one. They scroll sideways
 * inside their own strip, so ten long codes never widen the page on a handheld.
 */
export function MruChips({ values, onPick, testId = 'mru' }: MruChipsProps) {
  const { t } = useTranslation();
  if (values.length === 0) return null;
  return (
    <Group gap="xs" wrap="nowrap" data-testid={testId}>
      <IconHistory size={20} aria-label={t('Recent')} style={{ flexShrink: 0 }} />
      <ScrollArea type="never" scrollbars="x" style={{ minWidth: 0, flex: 1 }}>
        <Group gap={6} wrap="nowrap">
          {values.map((v) => (
            <Button
              key={v}
              variant="default"
              radius="xl"
              size="sm"
              onClick={() => onPick(v)}
              data-testid={`${testId}-chip`}
              styles={{ label: { fontFamily: 'monospace' } }}
            >
              <Text span inherit>
                {v}
              </Text>
            </Button>
          ))}
        </Group>
      </ScrollArea>
    </Group>
  );
}
