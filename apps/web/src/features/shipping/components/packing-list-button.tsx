import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconFileText } from '@tabler/icons-react';
import type { OrderHeader } from '@floorhand/contract/orders';
import type { Package } from '@floorhand/contract/shipping';
import { getPackingList } from '../api/get-packing-list.ts';
import { printOrDownload } from '../../../lib/label-printing.ts';
import { base64Blob, saveFile } from '../../../lib/save-file.ts';

/** The package label's fields (label kind `package`) from the package and its order. */
export function packageLabelRow(order: OrderHeader, p: Package, items: number): Record<string, string> {
  const dims = p.length !== null && p.width !== null && p.height !== null ? `${p.length} x ${p.width} x ${p.height} cm` : '';
  return {
    packageNo: p.packageNo,
    orderId: order.number,
    orderType: order.type,
    customer: order.customer ?? '',
    warehouse: order.warehouse,
    packageType: p.type,
    weight: p.weight === null ? '' : `${p.weight} kg`,
    dimensions: dims,
    carrier: p.carrier ?? '',
    service: p.service ?? '',
    tracking: p.tracking ?? '',
    items: String(items),
  };
}

/**
 * A package's packing list (PDF, package/packingList, downloaded: the browser prints it from there) and
 * its package label on this device's printer. `auto` (print on ship, a preference): without a printer the
 * label is not downloaded, only a notice says so.
 */
export async function printPackingList(order: OrderHeader, p: Package, items: number, auto = false): Promise<void> {
  const res = await getPackingList(p._id);
  if (res.pdf) saveFile(base64Blob(res.pdf, 'application/pdf'), res.fileName ?? `packing-list-${p.packageNo}.pdf`);
  await printOrDownload({ kind: 'package', source: { rows: [packageLabelRow(order, p, items)] }, auto });
}

/**
 * "Packing list and label": downloads the package's packing list (PDF, package/packingList) and prints
 * its package label on this device's printer (the labels area; a PNG download without a printer).
 */
export function PackingListButton({ order, p, items }: { order: OrderHeader; p: Package; items: number }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await printPackingList(order, p, items);
    } catch {
      // The error dialog has said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="md"
      variant="default"
      leftSection={<IconFileText size={20} />}
      loading={busy}
      disabled={items === 0}
      onClick={() => void run()}
      data-testid="package-packing-list"
    >
      {t('Packing list and label')}
    </Button>
  );
}
