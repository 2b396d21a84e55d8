import { Menu, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconCheck, IconDeviceMobile, IconMoon, IconSun } from '@tabler/icons-react';
import { COLOR_SCHEME_LABELS } from '../lib/color-scheme.ts';

const COLOR_SCHEME_ICONS = new Map<MantineColorScheme, typeof IconSun>([
  ['light', IconSun],
  ['dark', IconMoon],
  ['auto', IconDeviceMobile],
]);

/** Light, Dark or Device: the colours this person sees, kept in their preferences (lib/color-scheme.ts). */
export function ColorSchemeItems() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <>
      <Menu.Label>{t('Colours')}</Menu.Label>
      {[...COLOR_SCHEME_LABELS].map(([scheme, label]) => {
        const Icon = COLOR_SCHEME_ICONS.get(scheme)!;
        const chosen = scheme === colorScheme;
        return (
          <Menu.Item
            key={scheme}
            role="menuitemradio"
            aria-checked={chosen}
            leftSection={<Icon size={18} aria-hidden />}
            rightSection={chosen ? <IconCheck size={16} aria-hidden /> : null}
            onClick={() => setColorScheme(scheme)}
            data-testid={`color-scheme-${scheme}`}
          >
            {t(label)}
          </Menu.Item>
        );
      })}
    </>
  );
}
