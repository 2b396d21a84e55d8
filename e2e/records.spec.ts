import { expect, test } from '@playwright/test';
import { adminApi } from './support.ts';

// Record scripts run in the built server's script worker (dist/sandbox-worker.js): a calculation
// script of the department entity, limited to this test's own codes, fills in the name.
test('a calculation script runs in the server’s script worker', async ({ request }) => {
  const api = await adminApi(request);
  const dataId = 'entity_department';
  // Absent until someone stores it (the first run on a fresh database).
  const current = (await api('site/getData', { section: 'conf', dataId }).catch(() => ({}))) as { siteData?: { _rev: number } };
  const calcScript = "if (String(record.code).startsWith('E2ESCRIPT')) record.name = 'calc ' + record.code;";
  await api('site/putData', {
    section: 'conf',
    siteData: { dataId, data: { calcScript }, ...(current.siteData ? { _rev: current.siteData._rev } : {}) },
  });
  const code = `E2ESCRIPT${Date.now().toString(36).toUpperCase()}`;
  const saved = (await api('record/insert', { type: 'department', record: { code, name: 'typed', active: true } })) as {
    record: { name: string };
  };
  expect(saved.record.name).toBe(`calc ${code}`);
});
