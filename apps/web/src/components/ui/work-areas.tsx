import { createContext, useContext, type ComponentType } from 'react';
import { IconBarcode } from '@tabler/icons-react';
import { featureGiven, type VisibleFeatures, type WorkArea } from '@floorhand/contract/features';
import { mayUseTimeclock, type UserPerms } from '@floorhand/contract/perms';
import { useSessionStore } from '../../lib/session-store.ts';

/** A work area as the menus show it. The registry of them is the app's (`app/work-areas.tsx`). */
export interface WorkAreaEntry {
  feature: WorkArea;
  path: string;
  title: string;
  description: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
}

export const ScanIcon = IconBarcode;

/** Whether a session may open a work area: its visible features, and the time clock only for timeclock accounts and admins. */
export const isWorkAreaVisible = (w: WorkAreaEntry, features: VisibleFeatures | null, perms: UserPerms | null): boolean =>
  featureGiven(features, w.feature) && (w.feature !== 'timeclock' || (!!perms && mayUseTimeclock(perms)));

/**
 * The work areas in menu order, handed down by the app (which composes the features) so that shared
 * code and features read the one registry without importing the app.
 */
export const WorkAreasContext = createContext<readonly WorkAreaEntry[]>([]);

export const useWorkAreas = (): readonly WorkAreaEntry[] => useContext(WorkAreasContext);

/** The work areas the session may open, in menu order. */
export function useVisibleWorkAreas(): WorkAreaEntry[] {
  const features = useSessionStore((s) => s.featureAccess);
  const perms = useSessionStore((s) => s.perms);
  return useWorkAreas().filter((w) => isWorkAreaVisible(w, features, perms));
}
