import { describe, expect, it } from 'vitest';
import { WORK_AREAS } from '@floorhand/contract/features';
import { NO_PERMS } from '@floorhand/contract/perms';
import { visibleWorkAreas, WORK_AREA_REGISTRY } from './work-areas.tsx';

const features = (list: ReturnType<typeof visibleWorkAreas>) => list.map((w) => w.feature);

describe('visible work areas', () => {
  it('hide what feature access hides, and show the time clock only to timeclock accounts and admins', () => {
    const clerk = features(visibleWorkAreas({ stockPick: false }, NO_PERMS));
    expect(clerk).not.toContain('stockPick');
    expect(clerk).not.toContain('timeclock');
    expect(clerk).toContain('stockLookup');
    expect(features(visibleWorkAreas(null, { ...NO_PERMS, roles: ['siteAdmin'] }))).toContain('timeclock');
    expect(features(visibleWorkAreas(null, { ...NO_PERMS, timeclockAcct: true }))).toContain('timeclock');
  });

  it('hold every work area of the contract once, each under its own path', () => {
    expect(WORK_AREA_REGISTRY.map((w) => w.feature).sort()).toEqual([...WORK_AREAS].sort());
    expect(new Set(WORK_AREA_REGISTRY.map((w) => w.path)).size).toBe(WORK_AREA_REGISTRY.length);
  });
});
