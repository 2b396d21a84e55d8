import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Ascending or descending, for a list's sort preference (the pick list, the pack board). */
export function SortDirectionSelect({ desc, onChange, testId }: { desc: boolean; onChange: (desc: boolean) => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('Direction')}
      allowDeselect={false}
      data={[
        { value: 'asc', label: t('Ascending') },
        { value: 'desc', label: t('Descending') },
      ]}
      value={desc ? 'desc' : 'asc'}
      onChange={(v) => onChange(v === 'desc')}
      data-testid={testId}
    />
  );
}
