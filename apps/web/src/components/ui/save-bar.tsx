import { Alert, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconDeviceFloppy } from '@tabler/icons-react';

export interface SaveBarProps {
  /** What must be corrected before saving, one line each. */
  problems: string[];
  dirty: boolean;
  saving: boolean;
  /** Anything else that holds saving back (an upload under way). */
  busy?: boolean;
  saveLabel: string;
  saveTestId: string;
  onSave(): void;
  onDiscard(): void;
}

/** The foot of an edit form: what to correct, then Save and Discard. */
export function SaveBar({ problems, dirty, saving, busy, saveLabel, saveTestId, onSave, onDiscard }: SaveBarProps) {
  const { t } = useTranslation();
  return (
    <>
      {problems.length > 0 && (
        <Alert color="red" title={t('Please correct')} style={{ whiteSpace: 'pre-line' }}>
          {problems.join('\n')}
        </Alert>
      )}
      <Group>
        <Button
          leftSection={<IconDeviceFloppy size={20} />}
          disabled={!dirty || problems.length > 0 || !!busy}
          loading={saving}
          onClick={onSave}
          data-testid={saveTestId}
        >
          {saveLabel}
        </Button>
        <Button variant="default" disabled={!dirty} onClick={onDiscard}>
          {t('Discard')}
        </Button>
      </Group>
    </>
  );
}
