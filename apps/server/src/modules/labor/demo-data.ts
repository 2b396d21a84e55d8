/*
 * Demo tasks and a few finished labor entries of the last days, so the labor screens and reports show
 * something on a fresh `npm start`. Entries are batches of one, booked as the service would book them.
 */
import { LABOR_DEFAULTS } from '@floorhand/contract/constants';
import { roundSeconds } from '@floorhand/contract/labor';
import { auditStamp } from '../../lib/audit.ts';
import type { Db } from '../../db/client.ts';
import { laborEntries, tasks } from '../../db/schema.ts';

export const DEMO_TASKS = [
  {
    taskCode: 'T-WO1001-10',
    kind: 'wos',
    orderNumber: 'WO1001',
    operationNumber: '10',
    description: 'Cut frame tubes',
    workCentre: 'SAW',
    plannedMinutes: '90',
  },
  {
    taskCode: 'T-WO1001-20',
    kind: 'wos',
    orderNumber: 'WO1001',
    operationNumber: '20',
    description: 'Weld frame',
    workCentre: 'WELD',
    plannedMinutes: '120',
  },
  {
    taskCode: 'T-WO1001-30',
    kind: 'wos',
    orderNumber: 'WO1001',
    operationNumber: '30',
    description: 'Paint frame',
    workCentre: 'PAINT',
    plannedMinutes: '45',
  },
  {
    taskCode: 'T-MO2001-10',
    kind: 'mos',
    orderNumber: 'MO2001',
    operationNumber: '10',
    description: 'Assemble gearbox',
    workCentre: 'ASSY',
    plannedMinutes: '60',
  },
  {
    taskCode: 'T-MO2001-20',
    kind: 'mos',
    orderNumber: 'MO2001',
    operationNumber: '20',
    description: 'Test gearbox',
    workCentre: 'TEST',
    plannedMinutes: '30',
  },
  {
    taskCode: 'T-RS3001-10',
    kind: 'rst',
    orderNumber: 'RS3001',
    operationNumber: '10',
    description: 'Rework bracket',
    workCentre: 'BENCH',
    plannedMinutes: '20',
  },
  {
    taskCode: 'IND-TRAINING',
    kind: 'training',
    orderNumber: null,
    operationNumber: null,
    description: 'Training',
    workCentre: null,
    plannedMinutes: null,
  },
  {
    taskCode: 'IND-CLEANING',
    kind: 'cleaning',
    orderNumber: null,
    operationNumber: null,
    description: 'Cleaning',
    workCentre: null,
    plannedMinutes: null,
  },
  {
    taskCode: 'IND-MEETING',
    kind: 'meeting',
    orderNumber: null,
    operationNumber: null,
    description: 'Team meeting',
    workCentre: null,
    plannedMinutes: null,
  },
] as const;

/** [worker, task code, days ago, start hour (UTC), minutes, quantity done, complete] */
const DEMO_LABOR: ReadonlyArray<[string, string, number, number, number, number | null, boolean]> = [
  ['clerk', 'T-WO1001-10', 2, 7, 95, 12, true],
  ['clerk', 'T-WO1001-20', 2, 9, 130, 6, false],
  ['admin', 'T-WO1001-20', 1, 7, 40, 6, true],
  ['admin', 'IND-MEETING', 1, 9, 30, null, false],
  ['clerk', 'T-MO2001-10', 1, 8, 50, 4, true],
  ['clerk', 'IND-CLEANING', 1, 12, 20, null, false],
  ['tcadmin', 'T-MO2001-20', 1, 13, 35, 4, true],
  ['clerk', 'T-WO1001-30', 0, 6, 40, 12, true],
];

export async function seedDemoLabor(db: Db, orgId: string, accountIds: ReadonlyMap<string, string>): Promise<void> {
  const stamp = auditStamp('system');
  const taskId = new Map(DEMO_TASKS.map((t) => [t.taskCode as string, `demo-task-${t.taskCode}`]));
  await db.insert(tasks).values(DEMO_TASKS.map((t) => ({ ...t, id: taskId.get(t.taskCode)!, orgId, audit: stamp })));
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  const rows = DEMO_LABOR.flatMap(([worker, code, daysAgo, hour, minutes, qty, complete], i) => {
    const accountId = accountIds.get(worker);
    if (!accountId) return [];
    const start = new Date(today.getTime() - daysAgo * 86_400_000 + hour * 3_600_000);
    const stop = new Date(start.getTime() + minutes * 60_000);
    const seconds = minutes * 60;
    return [
      {
        id: `demo-labor-${i + 1}`,
        orgId,
        accountId,
        taskId: taskId.get(code)!,
        batchId: `demo-batch-${i + 1}`,
        mode: 'single',
        startedAt: start.toISOString(),
        countedFrom: start.toISOString(),
        stoppedAt: stop.toISOString(),
        seconds,
        roundedSeconds: roundSeconds(seconds, LABOR_DEFAULTS.roundToMinutes),
        qtyDone: qty === null ? null : String(qty),
        complete,
        audit: stamp,
      },
    ];
  });
  // Today's entry must not lie in the future of a morning start.
  await db.insert(laborEntries).values(rows.filter((r) => Date.parse(r.stoppedAt) <= Date.now()));
}
