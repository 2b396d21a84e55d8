import type { z } from 'zod';
import { appSettingsSchema, brandSchema } from '@floorhand/contract/site-admin';
import { badInput } from '../../lib/errors.ts';

// Site data with a known shape is checked on every write, through admin/appSettings/put and
// admin/brand/put as through the generic site/putData.
const SHAPES: Record<string, z.ZodType> = { 'conf/app_settings': appSettingsSchema, 'brand/brand': brandSchema };

export function checkKnownSiteData(section: string, dataId: string, data: unknown): void {
  const shape = SHAPES[`${section}/${dataId}`];
  const result = shape?.safeParse(data);
  if (!result || result.success) return;
  const problems = result.error.issues.map((i) => `siteData.data.${i.path.join('.')}: ${i.message}`);
  throw badInput(`The request is not valid: ${problems.join('; ')}`);
}
