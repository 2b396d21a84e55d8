import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BlindPlace } from '@floorhand/contract/stock';

/**
 * What a blind counter or recounter sees instead of the stock of a place the server withholds
 * (docs/physical-inventory.md, Blind counts everywhere): one notice per place, no quantity.
 */
export function BlindNotices({ places, testId, icon }: { places: readonly BlindPlace[] | undefined; testId: string; icon?: ReactNode }) {
  const { t } = useTranslation();
  return (places ?? []).map((b) => {
    const vars = { place: `${b.warehouse} / ${b.location}`, sheet: b.sheet };
    return (
      <Alert
        key={`${b.warehouse}/${b.location}`}
        icon={icon}
        color="dark"
        data-testid={testId}
        title={b.recount ? t('Recounted blind') : t('Counted blind')}
      >
        {b.recount
          ? t(
              'Stock in {{place}} is due for a blind recount (count sheet {{sheet}}); quantities are hidden from its recounters until it is recounted.',
              vars,
            )
          : t(
              'Stock in {{place}} is being counted blind (count sheet {{sheet}}); quantities are hidden until the count is in review.',
              vars,
            )}
      </Alert>
    );
  });
}
