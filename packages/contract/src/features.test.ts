import { describe, expect, it } from 'vitest';
import { DEFAULT_NONE, defaultLevel, visibleFeatures } from './features.ts';
import { EVERYONE } from './roles.ts';

describe('features that are an admin’s job by default (DEFAULT_NONE)', () => {
  it('keeps order writing (stockPick.orders) from everyone but the admin roles until a role gives it', () => {
    expect(DEFAULT_NONE.has('stockPick.orders')).toBe(true);
    expect(visibleFeatures({}, [EVERYONE])['stockPick.orders']).toBe(false);
    expect(visibleFeatures({}, [EVERYONE, 'picker'])['stockPick.orders']).toBe(false);
    expect(visibleFeatures({}, [EVERYONE, 'siteAdmin'])['stockPick.orders']).toBe(true);
    expect(visibleFeatures({}, [EVERYONE, 'orgAdmin'])['stockPick.orders']).toBe(true);
    // The rest of picking stays visible by default.
    expect(visibleFeatures({}, [EVERYONE]).stockPick).toBe(true);
  });

  it('separates counting from reviewing and posting (physicalInventory.post): everyone counts, admins review', () => {
    expect(DEFAULT_NONE.has('physicalInventory.post')).toBe(true);
    expect(visibleFeatures({}, [EVERYONE]).physicalInventory).toBe(true);
    expect(visibleFeatures({}, [EVERYONE])['physicalInventory.post']).toBe(false);
    expect(visibleFeatures({}, [EVERYONE, 'orgAdmin'])['physicalInventory.post']).toBe(true);
    expect(visibleFeatures({ supervisor: { 'physicalInventory.post': 1 } }, [EVERYONE, 'supervisor'])['physicalInventory.post']).toBe(true);
  });

  it('is given by a role set to Full, to Everyone too, and taken from admins by setting their role to None', () => {
    expect(visibleFeatures({ erp: { 'stockPick.orders': 1 } }, [EVERYONE, 'erp'])['stockPick.orders']).toBe(true);
    expect(visibleFeatures({ [EVERYONE]: { 'stockPick.orders': 1 } }, [EVERYONE])['stockPick.orders']).toBe(true);
    expect(visibleFeatures({ siteAdmin: { 'stockPick.orders': 0 } }, [EVERYONE, 'siteAdmin'])['stockPick.orders']).toBe(false);
  });

  it('leaves every other feature’s default as it was', () => {
    expect(defaultLevel('stockAdjust.adjust', EVERYONE)).toBeNull();
    expect(defaultLevel('stockPick.orders', EVERYONE)).toBe(0);
    expect(defaultLevel('stockPick.orders', 'siteAdmin')).toBe(1);
    // A role named like an Object member is a role like any other.
    expect(defaultLevel('constructor', 'siteAdmin')).toBeNull();
    expect(visibleFeatures({}, [EVERYONE, '__proto__'])['stockPick.orders']).toBe(false);
  });
});
