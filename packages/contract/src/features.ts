// Features are the work areas and their actions (design: Tenancy and identity). Feature access
// levels per role: null default, 0 None, 1 Full; R and W read as Full.
import { ROLE } from './perms.ts';

export const WORK_AREAS = [
  'stockPick',
  'shipping',
  'stockLookup',
  'stockAdjust',
  'physicalInventory',
  'location',
  'labelPrinter',
  'singleTask',
  'batchTask',
  'timeclock',
] as const;
export type WorkArea = (typeof WORK_AREAS)[number];

export const FEATURE_ACTIONS = [
  'stockAdjust.adjust',
  'stockAdjust.move',
  'stockAdjust.split',
  /** Receiving new stock records, by hand or by CSV import. */
  'stockAdjust.receive',
  /** Creating, editing and deactivating locations and warehouses, by hand or by CSV import. */
  'location.edit',
  /** Creating and editing items, by hand or by CSV import. */
  'stockLookup.items',
  'physicalInventory.post',
  /** Creating and editing tasks of task labor, by the API or by CSV import. */
  'singleTask.tasks',
  /** Creating, editing and cancelling orders, by hand, by the API or by CSV import. */
  'stockPick.orders',
] as const;

export type FeatureAction = (typeof FEATURE_ACTIONS)[number];

/** Every feature: the work areas and their actions. A right or a lookup naming anything else does not compile. */
export const FEATURES = [...WORK_AREAS, ...FEATURE_ACTIONS] as const;
export type Feature = (typeof FEATURES)[number];

const FEATURE_NAMES: ReadonlySet<string> = new Set<string>(FEATURES);

/** Whether a name read from outside (a stored row, a request body) is a feature. */
export const isFeature = (name: string): name is Feature => FEATURE_NAMES.has(name);

/**
 * Feature actions that are a supervisor's or administrator's job by default (docs/admin.md, Feature
 * access): a role's default level is Full for the admin roles and None for every other role, Everyone's
 * included. An admin gives them to others (a supervisor's role, an ERP's service account) by setting Full.
 * - stockPick.orders: keeping orders.
 * - physicalInventory.post: reviewing, deciding and posting counts, creating and cancelling sheets,
 *   thresholds and frequencies, and posting each count at once. Counting and reviewing are separate
 *   rights (issue 25): everyone with Physical Inventory counts; only a reviewer sees variances.
 */
export const DEFAULT_NONE: ReadonlySet<string> = new Set<string>(['stockPick.orders', 'physicalInventory.post'] satisfies Feature[]);
const ADMIN_ROLES: ReadonlySet<string> = new Set<string>([ROLE.siteAdmin, ROLE.orgAdmin]);

/** What a role's default (null) cell means for a feature: null (the feature's own default) or a level. */
export function defaultLevel(feature: string, role: string): FeatureLevel {
  if (!DEFAULT_NONE.has(feature)) return null;
  return ADMIN_ROLES.has(role) ? 1 : 0;
}

export type FeatureLevel = 0 | 1 | null;
/** Which features a session's roles give: every feature named (false hidden, true shown); a name not a feature does not compile. */
export type VisibleFeatures = Readonly<Partial<Record<Feature, boolean>>>;

/** Whether the roles give a feature: only an explicit false hides it. */
export const featureGiven = (features: VisibleFeatures | null | undefined, feature: Feature): boolean => features?.[feature] !== false;

/** R and W map to Full, numbers pass through, anything else is default. */
export function normaliseLevel(raw: unknown): FeatureLevel {
  if (raw === 'R' || raw === 'W' || raw === 1 || raw === '1') return 1;
  if (raw === 0 || raw === '0') return 0;
  return null;
}

/** Feature access cycle: default → None → Full; Full has no next step. */
export function nextLevel(level: FeatureLevel): FeatureLevel {
  if (level === null) return 0;
  return 1;
}

/**
 * Visible features for a set of roles: a feature is visible when one of the roles grants Full, hidden
 * when one sets None and none grants Full, and visible by default otherwise. A role's default cell
 * counts as its defaultLevel (DEFAULT_NONE: Full for admin roles, None for the others).
 */
export function visibleFeatures(levelsByRole: Record<string, Record<string, FeatureLevel>>, roles: readonly string[]): VisibleFeatures {
  const out: Partial<Record<Feature, boolean>> = {};
  for (const feature of FEATURES) {
    const levels = roles.map((role) => levelsByRole[role]?.[feature] ?? defaultLevel(feature, role));
    out[feature] = levels.includes(1) || !levels.includes(0);
  }
  return out;
}
