import { describe, expect, it } from 'vitest';
import { NO_PERMS } from '@floorhand/contract/perms';
import { visibleWorkAreas } from './work-areas.tsx';

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
});
