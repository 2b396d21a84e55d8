import { useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  FileButton,
  Group,
  Modal,
  NumberInput,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { IconUpload } from '@tabler/icons-react';
import { COUNT_SHEET_CSV_COLUMNS, sheetImportReportSchema, type SheetImportReport } from '@floorhand/contract/counts';
import { ERR } from '@floorhand/contract/errors';
import { DataTable, type DataColumn } from '../../../components/ui/data-table.tsx';
import { ApiError } from '../../../lib/api.ts';
import { importSheets } from '../api/import-sheets.ts';
import { countKeys } from '../api/keys.ts';
import { useCountChange } from '../api/change-counts.ts';
import { useFrequency } from '../api/get-frequency.ts';

type Problem = SheetImportReport['rejected'][number] & { n: number };

function reportOf(e: unknown): SheetImportReport | null {
  if (!(e instanceof ApiError) || e.err.code !== ERR.badInput || !e.err.detail) return null;
  try {
    return sheetImportReportSchema.parse(JSON.parse(e.err.detail));
  } catch {
    return null;
  }
}

/** Count sheets by CSV: one sheet a row; a refused file lists every problem of every row. */
export function SheetImport() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<SheetImportReport | null>(null);
  const resetFile = useRef<() => void>(null);
  const columns: DataColumn<Problem>[] = [
    { id: 'row', header: t('Row'), cell: (p) => p.row, sortValue: (p) => p.row },
    { id: 'field', header: t('Field'), cell: (p) => p.field },
    { id: 'problem', header: t('Problem'), cell: (p) => p.message, tdProps: { style: { overflowWrap: 'anywhere' } } },
  ];

  const importFile = async (file: File | null) => {
    if (!file) return;
    setBusy(true);
    try {
      const res = await importSheets(await file.text());
      notifications.show({
        color: 'green',
        message: t('{{file}}: {{n}} count sheets created', { file: file.name, n: res.report?.created ?? 0 }),
      });
    } catch (e) {
      const refused = reportOf(e);
      if (refused) setReport(refused);
      else if (e instanceof ApiError && e.err.code === ERR.badInput)
        setReport({ rows: 0, created: 0, rejectedCount: 1, rejected: [{ row: 1, field: '', message: e.err.message }] });
    } finally {
      setBusy(false);
      resetFile.current?.();
      void qc.invalidateQueries({ queryKey: countKeys.all });
    }
  };

  return (
    <>
      <FileButton onChange={(f) => void importFile(f)} accept=".csv,text/csv" resetRef={resetFile}>
        {(props) => (
          <Button
            {...props}
            variant="default"
            leftSection={<IconUpload size={18} />}
            loading={busy}
            data-testid="pi-import"
            title={t('Columns: {{columns}}', { columns: COUNT_SHEET_CSV_COLUMNS.join(', ') })}
          >
            {t('Import sheets (CSV)')}
          </Button>
        )}
      </FileButton>
      {report && (
        <Modal opened onClose={() => setReport(null)} title={t('Import refused')} size="lg" data-testid="pi-import-report">
          <Stack>
            <Alert color="red">
              {t('{{n}} problems; no sheet was created. Correct the file and import it again.', { n: report.rejectedCount })}
            </Alert>
            <ScrollArea.Autosize mah="50vh" type="auto">
              <DataTable
                rows={report.rejected.map((p, n) => ({ ...p, n }))}
                columns={columns}
                rowKey={(p) => String(p.n)}
                rowAttrs={() => ({ 'data-testid': 'pi-import-problem' })}
                tableProps={{ striped: true, verticalSpacing: 4, highlightOnHover: false }}
                scroll={false}
              />
            </ScrollArea.Autosize>
            <Group justify="flex-end">
              <Button onClick={() => setReport(null)}>{t('OK')}</Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </>
  );
}

/** Days between counts of a warehouse, or of the locations named; a due sheet takes the locations not counted within them. */
export function FrequencyPanel({ warehouses }: { warehouses: string[] }) {
  const { t } = useTranslation();
  const [warehouse, setWarehouse] = useState<string | null>(warehouses[0] ?? null);
  const [days, setDays] = useState<string | number>('');
  const [locations, setLocations] = useState('');
  const frequency = useFrequency(warehouse);
  const put = useCountChange('counts/frequency/put');
  const current = frequency.data?.frequency;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!warehouse) return;
    const codes = locations.split(/[\s,;]+/).filter(Boolean);
    const value = days === '' ? null : Number(days);
    await put.mutateAsync({ warehouse, days: value, ...(codes.length ? { locations: codes } : {}) });
    notifications.show({
      color: 'green',
      message: value === null ? t('Count frequency removed') : t('Count every {{n}} days saved', { n: value }),
    });
  };

  return (
    <Paper withBorder p="sm" component="form" onSubmit={(e: FormEvent) => void save(e)} data-testid="pi-frequency">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('Cycle count frequency')}
        </Title>
        <Text size="sm" c="dimmed">
          {current
            ? t('{{warehouse}}: every {{days}}; {{n}} locations with days of their own', {
                warehouse: current.warehouse,
                days: current.days === null ? t('— (none)') : t('{{n}} days', { n: current.days }),
                n: current.locations.length,
              })
            : t('A location is due when no posted sheet counted it within its days.')}
        </Text>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={t('Warehouse')}
            data={warehouses}
            value={warehouse}
            onChange={setWarehouse}
            data-testid="pi-frequency-warehouse"
            w={160}
          />
          <NumberInput
            label={t('Days between counts')}
            placeholder={t('none')}
            min={1}
            max={3660}
            allowDecimal={false}
            value={days}
            onChange={setDays}
            data-testid="pi-frequency-days"
            w={180}
          />
          <TextInput
            label={t('Only these locations')}
            placeholder={t('the whole warehouse')}
            value={locations}
            onChange={(e) => setLocations(e.currentTarget.value)}
            data-testid="pi-frequency-locations"
            w={240}
          />
          <Button type="submit" variant="default" loading={put.isPending} data-testid="pi-frequency-save">
            {t('Save frequency')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
