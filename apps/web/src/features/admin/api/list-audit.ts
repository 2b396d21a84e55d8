import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { adminKeys } from '../../../lib/call-mutation.ts';

export const AUDIT_PAGE_SIZE = 25;

export interface AuditQuery {
  offset: number;
  entity: string | null;
}

/** One page of the audit log, optionally of one kind of entity. */
export const listAudit = (q: AuditQuery) =>
  call('admin/audit/list', { offset: q.offset, limit: AUDIT_PAGE_SIZE, entity: q.entity ?? undefined });

export const auditQuery = (q: AuditQuery) =>
  queryOptions({ queryKey: adminKeys.audit(q), queryFn: () => listAudit(q), placeholderData: keepPreviousData });

export const useAudit = (q: AuditQuery) => useQuery(auditQuery(q));
