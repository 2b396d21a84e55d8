import { useState } from 'react';
import { Card, Code, Collapse, Group, Select, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { describeAudit, type AuditEntry } from '@floorhand/contract/site-admin';
import { AUDIT_PAGE_SIZE, auditQuery } from '../api/list-audit.ts';
import { showTimestamp } from '../../../lib/inventory-format.ts';
import { Pager } from '../../../components/ui/pager.tsx';

const ENTITIES = ['account', 'role', 'featureAccess', 'workstation', 'siteData.conf', 'siteData.brand'];

const json = (v: unknown) => (v === null || v === undefined ? '—' : JSON.stringify(v, null, 2));

function Entry({ e }: { e: AuditEntry }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder padding="sm" data-testid="audit-entry">
      <UnstyledButton onClick={() => setOpen(!open)} style={{ width: '100%', minHeight: 44 }} aria-expanded={open}>
        <Group justify="space-between" wrap="wrap" gap={4}>
          <Text fw={600} size="sm">
            {describeAudit(e, t)}
          </Text>
          <Text size="sm" c="dimmed">
            {showTimestamp(e.ts)} · {e.userName ?? e.accountId}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse in={open}>
        <Text size="xs" c="dimmed" mt="xs">
          {t('Call')}: {e.action}
        </Text>
        <SimpleGrid cols={{ base: 1, md: 2 }} mt="xs">
          <div>
            <Text size="xs" fw={700}>
              {t('Before')}
            </Text>
            <Code block style={{ maxHeight: 320, overflow: 'auto' }}>
              {json(e.before)}
            </Code>
          </div>
          <div>
            <Text size="xs" fw={700}>
              {t('After')}
            </Text>
            <Code block style={{ maxHeight: 320, overflow: 'auto' }}>
              {json(e.after)}
            </Code>
          </div>
        </SimpleGrid>
      </Collapse>
    </Card>
  );
}

/** The audit log of administrative changes, newest first: who, when, what, before and after. */
export function AuditLog() {
  const { t } = useTranslation();
  const [offset, setOffset] = useState(0);
  const [entity, setEntity] = useState<string | null>(null);
  const q = useQuery(auditQuery({ offset, entity }));
  const entries = q.data?.entries ?? [];
  return (
    <Stack>
      <Group align="flex-end" justify="space-between" wrap="wrap">
        <Select
          label={t('Show')}
          placeholder={t('All changes')}
          data={ENTITIES}
          value={entity}
          clearable
          onChange={(v) => {
            setEntity(v);
            setOffset(0);
          }}
          size="md"
          style={{ minWidth: 220 }}
        />
      </Group>
      {entries.map((e) => (
        <Entry key={e.id} e={e} />
      ))}
      {!q.isPending && entries.length === 0 && <Text c="dimmed">{t('No changes recorded.')}</Text>}
      <Pager
        offset={offset}
        count={entries.length}
        more={!!q.data?.more}
        busy={q.isPlaceholderData}
        onPrevious={() => setOffset(Math.max(0, offset - AUDIT_PAGE_SIZE))}
        onNext={() => setOffset(offset + AUDIT_PAGE_SIZE)}
        previousLabel={t('Newer')}
        nextLabel={t('Older')}
        testId="audit"
      />
    </Stack>
  );
}
