import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { APP_ID } from '@floorhand/contract/constants';
import { BUILT_IN_ROLES, ROLE } from '@floorhand/contract/perms';
import { auditStamp, newId } from '../lib/audit.ts';
import type { Db } from '../db/client.ts';
import { accountPerms, accounts, featureAccess, organisations, roles, sites, workstations } from '../db/schema.ts';
import { hashDeviceSecret } from '../lib/device-secret.ts';
import { seedDemoInventory } from '../modules/stock/demo-data.ts';
import { seedDemoLabor } from '../modules/labor/demo-data.ts';
import { seedDemoLabels } from '../modules/labels/demo-data.ts';
import { seedDemoCounts } from '../modules/counts/demo-data.ts';
import { seedDemoOrders } from '../modules/orders/demo-data.ts';
import { seedTimeclockDemo } from '../modules/timeclock/demo-data.ts';

export const DEMO = {
  orgId: 'demo',
  siteId: 'demo-main',
  /** A second site of the demo organisation (east.localhost), where only the admin has roles. */
  eastSiteId: 'demo-east',
  password: 'demo1234',
  /** Workstation ids the e2e tests use: authorised as kiosk and as time clock. */
  workstations: ['WS0001', 'WS0002'],
  /**
   * The secret the demo workstations hold (docs/admin.md): a browser that sends it with WS0001 is
   * that workstation. Known to anyone who reads this file, as the demo password is; a real site
   * authorises its devices from themselves or by pairing, and their secrets are random.
   */
  workstationSecret: 'demo-workstation-secret',
} as const;

/**
 * The demo's roles that keep orders (stockPick.orders, an admin's job by default): floor supervisors
 * and the ERP integration (organisation roles, not built in). Supervisors also review and post counts
 * (physicalInventory.post, an admin's job by default too): the demo's clerk counts, its supervisor reviews.
 */
export const DEMO_ORDER_ROLES = { supervisor: 'supervisor', erp: 'erp' } as const;
const DEMO_ERP_ROLE = DEMO_ORDER_ROLES.erp;

interface DemoAccount {
  userName: string;
  firstName: string;
  surnames: string;
  roles?: string[];
  kioskAcct?: boolean;
  timeclockAcct?: boolean;
  serviceAcct?: boolean;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { userName: 'admin', firstName: 'Ada', surnames: 'Admin', roles: [ROLE.orgAdmin, ROLE.siteAdmin] },
  { userName: 'clerk', firstName: 'Cleo', surnames: 'Clerk' },
  { userName: 'super', firstName: 'Sam', surnames: 'Supervisor', roles: [DEMO_ORDER_ROLES.supervisor] },
  { userName: 'kiosk', firstName: 'Shop Floor', surnames: 'Kiosk', kioskAcct: true },
  { userName: 'clock', firstName: 'Wall', surnames: 'Clock', timeclockAcct: true },
  // The ERP keeps orders (stockPick.orders, an admin's job by default: its role gives it).
  { userName: 'svc', firstName: 'ERP', surnames: 'Integration', serviceAcct: true, roles: [DEMO_ERP_ROLE] },
  { userName: 'tcadmin', firstName: 'Tom', surnames: 'Timekeeper', roles: [ROLE.timeclockAdmin] },
];

/** A site of an organisation, resolving for the given hosts. */
export async function createSite(db: Db, orgId: string, site: { id: string; name: string; hosts: string[] }): Promise<void> {
  await db
    .insert(sites)
    .values({ id: site.id, orgId, name: site.name, hostPatterns: site.hosts, trustedDomains: site.hosts, audit: auditStamp('system') });
}

/** An organisation with one site resolving for the given hosts, and its built-in roles. */
export async function createOrganisation(db: Db, org: { id: string; name: string; siteId: string; hosts: string[] }): Promise<void> {
  const stamp = auditStamp('system');
  await db.insert(organisations).values({ id: org.id, name: org.name, audit: stamp });
  await createSite(db, org.id, { id: org.siteId, name: `${org.name} main site`, hosts: org.hosts });
  await db.insert(roles).values(BUILT_IN_ROLES.map((name) => ({ orgId: org.id, name, builtIn: true, audit: stamp })));
}

export async function createAccount(db: Db, orgId: string, siteId: string, a: DemoAccount, password: string): Promise<string> {
  const id = newId();
  const stamp = auditStamp('system');
  await db.insert(accounts).values({
    id,
    orgId,
    userName: a.userName,
    // Service accounts are integrations: API keys only, never a password (docs/admin.md).
    passwordHash: a.serviceAcct ? null : await hash(password),
    firstName: a.firstName,
    surnames: a.surnames,
    email: `${a.userName}@${orgId}.example`,
    badgeCode: `B-${a.userName.toUpperCase()}`,
    audit: stamp,
  });
  await db.insert(accountPerms).values({
    accountId: id,
    siteId,
    appId: APP_ID,
    roles: a.roles ?? [],
    kioskAcct: a.kioskAcct ?? false,
    timeclockAcct: a.timeclockAcct ?? false,
    serviceAcct: a.serviceAcct ?? false,
    audit: stamp,
  });
  return id;
}

/** The demo data set; does nothing when the demo organisation exists already. */
export async function seedDemo(db: Db): Promise<boolean> {
  const existing = await db.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, DEMO.orgId));
  if (existing.length > 0) return false;
  await createOrganisation(db, {
    id: DEMO.orgId,
    name: 'Demo Warehouse Co.',
    siteId: DEMO.siteId,
    hosts: ['localhost', '127.0.0.1', '[::1]', '::1'],
  });
  await createSite(db, DEMO.orgId, { id: DEMO.eastSiteId, name: 'Demo Warehouse Co. east site', hosts: ['east.localhost'] });
  await db.insert(roles).values([
    {
      orgId: DEMO.orgId,
      name: DEMO_ORDER_ROLES.supervisor,
      description: 'Floor supervisors: keep orders, review and post counts',
      builtIn: false,
      audit: auditStamp('system'),
    },
    {
      orgId: DEMO.orgId,
      name: DEMO_ORDER_ROLES.erp,
      description: 'Integrations that create, edit and cancel orders',
      builtIn: false,
      audit: auditStamp('system'),
    },
  ]);
  await db.insert(featureAccess).values([
    ...Object.values(DEMO_ORDER_ROLES).map((role) => ({
      siteId: DEMO.siteId,
      appId: APP_ID,
      role,
      feature: 'stockPick.orders',
      level: 1 as const,
      audit: auditStamp('system'),
    })),
    {
      siteId: DEMO.siteId,
      appId: APP_ID,
      role: DEMO_ORDER_ROLES.supervisor,
      feature: 'physicalInventory.post',
      level: 1 as const,
      audit: auditStamp('system'),
    },
  ]);
  const ids = new Map<string, string>();
  for (const a of DEMO_ACCOUNTS) ids.set(a.userName, await createAccount(db, DEMO.orgId, DEMO.siteId, a, DEMO.password));
  const stamp = auditStamp('system');
  await db
    .insert(accountPerms)
    .values({ accountId: ids.get('admin')!, siteId: DEMO.eastSiteId, appId: APP_ID, roles: [ROLE.orgAdmin, ROLE.siteAdmin], audit: stamp });
  const secretHash = hashDeviceSecret(DEMO.workstationSecret);
  await db
    .insert(workstations)
    .values(DEMO.workstations.map((id) => ({ siteId: DEMO.siteId, id, kiosk: true, timeclock: true, secretHash, audit: stamp })));
  await seedDemoInventory(db, DEMO.orgId);
  await seedDemoLabor(db, DEMO.orgId, ids);
  await seedDemoLabels(db, DEMO.orgId, DEMO.siteId, ids.get('svc')!);
  await seedDemoCounts(db, DEMO.orgId, ids.get('admin')!);
  await seedDemoOrders(db, DEMO.orgId);
  await seedTimeclockDemo(db, DEMO.orgId, DEMO.siteId, ids);
  return true;
}
