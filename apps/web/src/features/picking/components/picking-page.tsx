import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Alert, Button, Group, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { IconClipboardList } from '@tabler/icons-react';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { useStockChangedRefresh } from '../../../lib/inventory-api.ts';
import { noAnswer } from '../../../lib/offline-cache/connection.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { readFeedback, refusedFeedback } from '../../../lib/scanning/feedback.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { pickOrderQuery } from '../api/get-pick-order.ts';
import { useOrdersChangedRefresh } from '../api/keys.ts';
import { PickList } from './pick-list.tsx';
import { PickOrder } from './pick-order.tsx';

/** The orders admin, a chunk of its own: pickers never download it. */
const OrdersAdmin = lazy(() => import('./orders-admin.tsx').then((m) => ({ default: m.OrdersAdmin })));
/** The search parameter that opens the orders admin on this page (the spec has no route of its own for it). */
const MANAGE_ORDERS = 'orders';

/**
 * Stock Picking (`/stockPick/{lookupVal?}`): the pick list, or the order the path names (a scanned
 * traveller, a link, a row of the list). Claims and picks of other pickers show live (ordersChanged).
 */
export function PickingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { lookupVal } = useParams({ strict: false }) as { lookupVal?: string };
  const { manage } = useSearch({ strict: false }) as { manage?: unknown };
  const canManage = useSessionStore((s) => s.featureAccess?.['stockPick.orders'] !== false);
  const number = (lookupVal ?? '').trim();
  useOrdersChangedRefresh();
  useStockChangedRefresh();
  const openOrder = (value: string) => void navigate({ href: `/stockPick/${encodeURIComponent(value.trim())}` });
  const q = useQuery({ ...pickOrderQuery(number), enabled: number !== '' && manage !== MANAGE_ORDERS });
  const { order, lines } = (number !== '' && q.data) || {};
  // No answer at all (offline, the server down) is not "no such order": the worker is told to wait.
  const unanswered = number !== '' && !(order && lines) && (q.fetchStatus === 'paused' || noAnswer(q.error));
  const missing = number !== '' && !q.isPending && !(order && lines) && !unanswered;
  useEffect(() => {
    if (missing) refusedFeedback();
  }, [missing, number]);

  if (manage === MANAGE_ORDERS && canManage) {
    return (
      <Suspense fallback={<Loader />}>
        <OrdersAdmin onBack={() => void navigate({ href: '/stockPick' })} />
      </Suspense>
    );
  }
  if (order && lines)
    return <PickOrder order={order} lines={lines} fetchedAt={q.dataUpdatedAt} onBack={() => void navigate({ href: '/stockPick' })} />;
  // The list stays mounted while a scanned order loads and when there is none: drawn again, it would
  // take the focus from wherever the worker left it (its field's autofocus) and lose its scroll.
  const notice =
    number === '' ? undefined : unanswered ? (
      <Alert color="yellow" title={t('Order {{number}} cannot be fetched offline', { number })} data-testid="pick-offline">
        {t('It opens as soon as the server answers again.')}
      </Alert>
    ) : q.isPending ? (
      <Loader size="sm" />
    ) : (
      <Alert color="yellow" title={t("No order '{{number}}'", { number })} data-testid="pick-not-found">
        {t('Scan the order traveller again or choose an order from the list.')}
      </Alert>
    );
  return <PickListScreen onOpen={openOrder} canManage={canManage} notice={notice} />;
}

function PickListScreen({ onOpen, canManage, notice }: { onOpen(number: string): void; canManage: boolean; notice?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // A scanned order traveller opens its order.
  useScans((scan) => {
    if (!scan.text.trim()) return;
    readFeedback(scan);
    onOpen(scan.text);
  });
  return (
    <Stack gap="sm" maw={1400}>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <ScanInput
          label={t('Order')}
          placeholder={t('Scan an order traveller or type its number')}
          data-testid="pick-order-input"
          data-scan-field="order"
          autoFocus
          style={{ flex: 1 }}
        />
        {canManage && (
          <Button
            variant="default"
            leftSection={<IconClipboardList size={20} />}
            onClick={() => void navigate({ href: `/stockPick?manage=${MANAGE_ORDERS}` })}
            data-testid="orders-admin-open"
          >
            {t('Orders')}
          </Button>
        )}
      </Group>
      {notice}
      <PickList onOpen={(o) => onOpen(o.number)} />
    </Stack>
  );
}
