import { NavLink, ScrollArea } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../lib/session-store.ts';
import { visibleWorkAreas } from './work-areas.tsx';

/** The navigation: the work areas the session may open, the current one marked. */
export function WorkAreaNav({ pathname }: { pathname: string }) {
  const { t } = useTranslation();
  const features = useSessionStore((s) => s.featureAccess);
  const perms = useSessionStore((s) => s.perms);
  return (
    <ScrollArea>
      {visibleWorkAreas(features, perms).map((w) => (
        <NavLink
          key={w.feature}
          component={Link}
          to={w.path}
          label={t(w.title)}
          leftSection={<w.icon size={22} />}
          active={pathname.startsWith(w.path)}
          style={{ minHeight: 44 }}
        />
      ))}
    </ScrollArea>
  );
}
