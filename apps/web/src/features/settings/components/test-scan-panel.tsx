import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconBarcode } from '@tabler/icons-react';
import { WEDGE_KEY_GAP_MS } from '@floorhand/contract/constants';
import type { Scan, ScanSource } from '../../../lib/scanning/scan-bus.ts';
import { DataTable, type DataColumn } from '../../../components/ui/data-table.tsx';
import { ScanInput } from '../../../components/scanning/scan-input.tsx';
import { openScanner, useScannerStore, type BarcodeSettings } from '../../../lib/scanning/scanner-store.ts';
import { useScans } from '../../../lib/scanning/use-scans.ts';
import { tk } from '@floorhand/contract/i18n';

type Row = Scan & { id: number; ms: number | null };
const KEPT = 5;

const SOURCE_LABEL: Record<ScanSource, string> = {
  camera: tk('Camera'),
  file: tk('Image file'),
  wedge: tk('Scanner (keyboard)'),
  input: tk('Scan field'),
};

/** What was read, and in which symbology. */
const value = (row: Row) => (
  <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
    <Text fw={600} size="sm" data-testid="test-scan-value">
      {row.text}
    </Text>
    <Text size="xs" c="dimmed">
      {row.format}
    </Text>
  </div>
);

export function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Shows what was read, from which source and how fast: for the camera and files the time from
 * opening the scanner, for keyboard scans the time from the first keystroke of the burst to the
 * screen. Repeats are shown too, so a worker can see a scanner bounce. Scans with `settings`, the
 * unsaved choices of App Settings.
 */
export function TestScanPanel({ settings }: { settings: BarcodeSettings }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<Row[]>([]);
  const burst = useRef({ start: 0, last: Number.NEGATIVE_INFINITY });
  const nextId = useRef(1);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.timeStamp - burst.current.last > WEDGE_KEY_GAP_MS) burst.current.start = e.timeStamp;
      burst.current.last = e.timeStamp;
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, []);

  useScans(
    (scan) => {
      const now = performance.now();
      const keyed = scan.source === 'wedge' || scan.source === 'input';
      const ms = keyed ? now - burst.current.start : now - useScannerStore.getState().openedAt;
      setRows((r) => [{ ...scan, id: nextId.current++, ms }, ...r].slice(0, KEPT));
    },
    { allowRepeats: true },
  );

  const columns = useMemo<DataColumn<Row>[]>(
    () => [
      { id: 'value', header: t('Value'), cell: value, tdProps: { style: { overflowWrap: 'anywhere' } } },
      { id: 'source', header: t('Source'), width: '32%', cell: (row) => t(SOURCE_LABEL[row.source]) },
      { id: 'time', header: t('Time'), width: '25%', cell: (row) => formatMs(row.ms), tdProps: { style: { whiteSpace: 'nowrap' } } },
    ],
    [t],
  );

  return (
    <Stack data-testid="test-scan-panel">
      <Group align="flex-end" wrap="wrap">
        <ScanInput label={t('Scan field')} style={{ flex: '1 1 220px' }} data-testid="test-scan-input" />
        <Button size="md" leftSection={<IconBarcode size={20} />} onClick={() => openScanner({ settings })} data-testid="test-scan-camera">
          {t('Scan with the camera')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('Scan anywhere on this page with a hand scanner, in the field or with the camera.')}
      </Text>
      <DataTable
        rows={rows}
        columns={columns}
        rowKey={(row) => String(row.id)}
        rowAttrs={(row) => ({ 'data-testid': 'test-scan-row', 'data-source': row.source })}
        empty={<Text data-testid="test-scan-empty">{t('Nothing scanned yet.')}</Text>}
        testId="test-scan-results"
        tableProps={{ striped: true, withTableBorder: true, highlightOnHover: false, verticalSpacing: 'xs', layout: 'fixed' }}
        scroll={false}
        renderCard={(row) => (
          <>
            <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
              {value(row)}
              <Text size="sm" style={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
                {formatMs(row.ms)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              {t(SOURCE_LABEL[row.source])}
            </Text>
          </>
        )}
      />
    </Stack>
  );
}
