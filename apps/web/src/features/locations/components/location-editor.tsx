import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import type { Location } from '@floorhand/contract/locations';
import { SchemaForm } from '../../../components/ui/schema-form.tsx';
import { ApiError } from '../../../lib/api.ts';
import { isDefinite, useAttempts } from '../../../lib/attempts.ts';
import { useNarrow } from '../../../lib/use-narrow.ts';
import { useSaveLocation } from '../api/save-location.ts';
import { locationFormEntity, locationFormValue } from '../utils/location-form.ts';

export interface LocationEditorProps {
  /** null: a new location. */
  location: Location | null;
  warehouseCodes: string[];
  defaultWarehouse?: string | null;
  onClose(): void;
}

/** Create or edit a location in a modal, with the record layer's checks per field (locationEntity). */
export function LocationEditor({ location, warehouseCodes, defaultWarehouse, onClose }: LocationEditorProps) {
  const { t } = useTranslation();
  const narrow = useNarrow();
  const save = useSaveLocation();
  const attempts = useAttempts();
  const editing = location !== null;

  const submit = async (record: Record<string, unknown>) => {
    const attempt = attempts.begin(record, () => record);
    try {
      const res = await save.mutateAsync({ record: attempt.body, idempotencyKey: attempt.key });
      attempts.settle();
      notifications.show({
        color: 'green',
        message: editing
          ? t('Location {{code}} saved', { code: res.location?.code ?? '' })
          : t('Location {{code}} created in {{warehouse}}', { code: res.location?.code ?? '', warehouse: res.location?.warehouse ?? '' }),
      });
      onClose();
    } catch (e) {
      // The form shows the server's field problems. A dropped answer keeps the attempt for the retry.
      if (!(e instanceof ApiError) || isDefinite(e.status)) attempts.settle();
      throw e;
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={editing ? t('Edit location {{code}}', { code: location.code }) : t('New location')}
      fullScreen={narrow}
      size="lg"
      data-testid="location-editor"
    >
      <SchemaForm
        entity={locationFormEntity(warehouseCodes, editing)}
        initialValue={locationFormValue(location, { warehouse: defaultWarehouse })}
        onSubmit={submit}
        editing={editing}
        submitLabel={editing ? t('Save') : t('Create')}
      />
    </Modal>
  );
}
