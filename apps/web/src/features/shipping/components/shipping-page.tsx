import { useNavigate, useParams } from '@tanstack/react-router';
import { useShippingRefresh } from '../api/keys.ts';
import { Board } from './pack-board.tsx';
import { PackOrder } from './pack-order.tsx';

/**
 * Shipping (`/shipping/{lookupVal?}`): the pack board of sales and movement orders, coloured by how
 * much is picked; an order opens its pack screen: packages, stock scanned into the chosen package,
 * ship one package or the whole order. Production orders are issued instead.
 */
export function ShippingPage() {
  const navigate = useNavigate();
  const { lookupVal } = useParams({ strict: false }) as { lookupVal?: string };
  const number = (lookupVal ?? '').trim();
  useShippingRefresh();
  const open = (value: string) => void navigate({ href: `/shipping/${encodeURIComponent(value.trim())}` });
  if (!number) return <Board onOpen={open} />;
  return <PackOrder number={number} onBack={() => void navigate({ href: '/shipping' })} onOpen={open} />;
}
