import type { CallArgs, CallResponse } from '@floorhand/contract/api';
import { conflict, forbidden, notFound, siteUnknown, unauthorized } from '../../lib/errors.ts';
import { hostMatches } from '@floorhand/contract/hosts';
import { isAdmin } from '@floorhand/contract/perms';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId, writeAuditLog } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { checkSiteData } from '../records/service.ts';
import { checkKnownSiteData } from './site-data.ts';
import { PUBLIC_SITE_DATA, SITE_DATA_DEFAULTS } from '../../lib/site-defaults.ts';
import { findSite, findSiteData, type SiteDataRow } from '../../lib/site-data.ts';
import { insertSiteData, listSites, updateSiteData } from './repository.ts';

export async function resolveSite(deps: Deps, hostname: string): Promise<CallResponse<'site/resolve'>> {
  const all = await listSites(deps.db);
  const site = all.find((s) => s.hostPatterns.some((p) => hostMatches(p, hostname)));
  if (!site) throw siteUnknown(`No site is set up for the host name '${hostname}'`);
  return { site: { siteId: site.id, orgId: site.orgId, trustedDomains: site.trustedDomains } };
}

const toSiteData = (row: SiteDataRow) => ({ _id: row.id, _rev: row.rev, dataId: row.dataId, data: row.data });

export async function getSiteData(
  deps: Deps,
  auth: AuthContext | undefined,
  body: CallArgs<'site/getData'> & { siteId: string },
): Promise<CallResponse<'site/getData'>> {
  const isPublic = PUBLIC_SITE_DATA.some(([s, d]) => s === body.section && d === body.dataId);
  if (!auth && !isPublic) throw unauthorized('Please log in first');
  // Before login the site is the one the client resolved; it must exist.
  if (!auth && !(await findSite(deps.db, body.siteId))) throw siteUnknown(`Unknown site '${body.siteId}'`);
  const siteId = auth?.siteId ?? body.siteId;
  const row = await findSiteData(deps.db, siteId, body.section, body.dataId);
  if (row) return { siteData: toSiteData(row) };
  // Own keys only: a dataId such as 'toString' must not find Object.prototype's.
  const defaults = Object.hasOwn(SITE_DATA_DEFAULTS, body.section) ? SITE_DATA_DEFAULTS[body.section]! : {};
  const fallback = Object.hasOwn(defaults, body.dataId) ? defaults[body.dataId] : undefined;
  if (!fallback) throw notFound(`No site data '${body.dataId}' in section '${body.section}'`);
  return { siteData: { dataId: body.dataId, data: structuredClone(fallback) } };
}

export async function putSiteData(deps: Deps, auth: AuthContext, body: CallArgs<'site/putData'>): Promise<CallResponse<'site/putData'>> {
  if (!isAdmin(auth.perms)) throw forbidden('Only site or organisation administrators may change site data');
  const { section } = body;
  // Checked by the record layer (siteDataEntity), so a bad dataId or data gets the spec's messages.
  const siteData = checkSiteData(body.siteData);
  checkKnownSiteData(section, siteData.dataId, siteData.data);
  const existing = await findSiteData(deps.db, auth.siteId, section, siteData.dataId);
  let saved: SiteDataRow | undefined;
  if (!existing) {
    saved = await insertSiteData(deps.db, {
      id: newId(),
      siteId: auth.siteId,
      section,
      dataId: siteData.dataId,
      data: siteData.data,
      audit: auditStamp(auth.accountId),
    });
    if (!saved) throw conflict(`Site data '${siteData.dataId}' was created by someone else meanwhile; reload and try again`);
  } else {
    if (siteData._rev !== existing.rev) {
      throw conflict(
        `Site data '${siteData.dataId}' was changed by someone else; reload and try again`,
        `revision sent: ${siteData._rev ?? 'none'}, stored: ${existing.rev}`,
      );
    }
    saved = await updateSiteData(deps.db, existing.id, existing.rev, {
      data: siteData.data,
      audit: auditStamp(auth.accountId, existing.audit),
    });
    if (!saved) throw conflict(`Site data '${siteData.dataId}' was changed by someone else; reload and try again`);
  }
  await writeAuditLog(deps.db, {
    orgId: auth.orgId,
    siteId: auth.siteId,
    accountId: auth.accountId,
    action: 'site/putData',
    entity: `siteData.${section}`,
    entityId: siteData.dataId,
    before: existing?.data ?? null,
    after: saved.data,
  });
  return { siteData: toSiteData(saved) };
}
