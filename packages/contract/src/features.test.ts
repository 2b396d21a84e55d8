import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NONE,
  defaultLevel,
  FEATURES,
  featureGiven,
  isFeature,
  visibleFeatures,
  type Feature,
  type VisibleFeatures,
} from './features.ts';
import type { CallRights } from './rights.ts';
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

describe('feature names (a type derived from FEATURES)', () => {
  it('does not compile a right, a feature or a lookup that names an unknown feature (tsc checks this file)', () => {
    // @ts-expect-error 'stockAdjust.ajust' is no feature.
    const typo: Feature = 'stockAdjust.ajust';
    const right: CallRights = {
      accounts: ['person'],
      devices: [],
      // @ts-expect-error a right naming an unknown feature does not compile.
      features: ['stockAdjust', 'stockAdjust.ajust'],
    };
    const visible: VisibleFeatures = { 'stockPick.orders': false };
    // @ts-expect-error a lookup of an unknown feature does not compile.
    const lookedUp: boolean | undefined = visible['stockPick.order'];
    // At run time the names are refused by isFeature (a stored row, a request body).
    expect(isFeature(typo)).toBe(false);
    expect(right.features?.every(isFeature)).toBe(false);
    expect(lookedUp).toBeUndefined();
  });

  it('tells features from other names, own names only', () => {
    for (const f of FEATURES) expect(isFeature(f)).toBe(true);
    for (const name of ['stockAdjust.ajust', '', 'constructor', '__proto__', 'toString']) expect(isFeature(name)).toBe(false);
  });

  it('gives a feature unless the roles hide it explicitly', () => {
    expect(featureGiven(null, 'stockPick')).toBe(true);
    expect(featureGiven({}, 'stockPick')).toBe(true);
    expect(featureGiven({ stockPick: true }, 'stockPick')).toBe(true);
    expect(featureGiven({ stockPick: false }, 'stockPick')).toBe(false);
    expect(featureGiven({ stockPick: false }, 'stockPick.orders')).toBe(true);
  });
});
