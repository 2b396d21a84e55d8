import { Alert, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { useStockChangedRefresh } from '../../../lib/inventory-api.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { pickOrderQuery, useOrdersChangedRefresh } from '../api/picking-api.ts';
import { PickList } from './pick-list.tsx';
import { PickOrder } from './pick-order.tsx';

/**
 * Stock Picking (`/stockPick/{lookupVal?}`): the pick list, or the order the path names (a scanned
 * traveller, a link, a row of the list). Claims and picks of other pickers show live (ordersChanged).
 */
export function PickingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { lookupVal } = useParams({ strict: false }) as { lookupVal?: string };
  const number = (lookupVal ?? '').trim();
  useOrdersChangedRefresh();
  useStockChangedRefresh();
  const openOrder = (value: string) => void navigate({ href: `/stockPick/${encodeURIComponent(value.trim())}` });
  const q = useQuery({ ...pickOrderQuery(number), enabled: number !== '' });

  if (!number) return <PickListScreen onOpen={openOrder} />;
  if (q.isPending) return <Loader />;
  if (q.isError || !q.data?.order || !q.data.lines) {
    return (
      <Stack gap="sm">
        <PickListScreen onOpen={openOrder} />
        <Alert color="yellow" title={t("No order '{{number}}'", { number })} data-testid="pick-not-found">
          {t('Scan the order traveller again or choose an order from the list.')}
        </Alert>
      </Stack>
    );
  }
  return <PickOrder order={q.data.order} lines={q.data.lines} onBack={() => void navigate({ href: '/stockPick' })} />;
}

function PickListScreen({ onOpen }: { onOpen(number: string): void }) {
  const { t } = useTranslation();
  // A scanned order traveller opens its order.
  useScans((scan) => {
    if (scan.text.trim()) onOpen(scan.text);
  });
  return (
    <Stack gap="sm" maw={1400}>
      <ScanInput label={t('Order')} placeholder={t('Scan an order traveller or type its number')} data-testid="pick-order-input" data-scan-field="order" autoFocus />
      <PickList onOpen={(o) => onOpen(o.number)} />
    </Stack>
  );
}
