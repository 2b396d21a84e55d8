/*
 * CSV import of tasks (task/import): upserted by task code, a new one inserted, a known one updated,
 * all or nothing, with task/upsert's rules and messages. The file is read by lib/csv-import.ts.
 */
import type { CallResponse } from '@floorhand/contract/api';
import { IMPORT_REPORT_MAX } from '@floorhand/contract/csv-transfer';
import { taskEntity, taskProblems, TASK_CSV_COLUMNS, type TaskImportReport } from '@floorhand/contract/labor';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Body } from '../../lib/call-body.ts';
import type { Deps } from '../../lib/calls.ts';
import { checkRows, readSheetOf, refuseRepeats, refusedFile } from '../../lib/csv-import.ts';
import { dup } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotent-write.ts';
import { guarded, mapDuplicates } from '../../db/errors.ts';
import { insertTasks, tasksByCode, updateImportedTask } from './repository.ts';
import { mergedTask, type TaskInput } from './service.ts';
import { tk } from '@floorhand/contract/i18n';

export async function importTasks(deps: Deps, auth: AuthContext, body: Body<'task/import'>): Promise<CallResponse<'task/import'>> {
  const sheet = readSheetOf(TASK_CSV_COLUMNS, taskEntity, body.csv);
  const { problems } = sheet;
  const rows = checkRows<TaskInput>(taskEntity, sheet.rows, problems);
  await refuseRepeats(rows, (v) => v.taskCode, 'taskCode', tk('This task code'), problems);
  const known = await tasksByCode(
    deps.db,
    auth.orgId,
    rows.map((r) => r.value.taskCode),
  );
  const planned = rows.map(({ row, value }) => {
    const stored = known.get(value.taskCode);
    const task = mergedTask(value, stored);
    for (const [field, messages] of Object.entries(taskProblems(task)))
      for (const message of messages) problems.push({ row, field, message });
    return { id: stored?.id ?? newId(), stored, task };
  });
  const report: TaskImportReport = {
    rows: sheet.count,
    imported: 0,
    inserted: 0,
    updated: 0,
    rejectedCount: problems.length,
    rejected: problems.sort((a, b) => a.row - b.row).slice(0, IMPORT_REPORT_MAX),
  };
  if (problems.length > 0) {
    throw refusedFile(report, problems);
  }
  return idempotentWrite(deps, auth, 'task/import', body, async (tx) => {
    const audit = auditStamp(auth.accountId);
    const fresh = planned.filter((p) => !p.stored);
    const old = planned.filter((p) => p.stored);
    if (fresh.length > 0) {
      await mapDuplicates(
        () =>
          insertTasks(
            tx,
            fresh.map((p) => ({ id: p.id, orgId: auth.orgId, ...p.task, audit })),
          ),
        {
          tasks_org_task_code: () =>
            dup('Task', '(one of the file)', 'Another import or save took one of these task codes meanwhile; import again'),
        },
      );
    }
    for (const p of old) {
      await guarded(() => updateImportedTask(tx, p.id, p.task, audit));
    }
    return { response: { report: { ...report, imported: planned.length, inserted: fresh.length, updated: old.length } } };
  });
}
