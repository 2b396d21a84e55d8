import { notifications } from '@mantine/notifications';
import type { LabelJob, LabelKind, LabelSource } from '@floorhand/contract/labels';
import { printerProblemInWords } from '@floorhand/contract/printer-words';
import type { Printer } from '@floorhand/contract/realtime';
import { call } from './api.ts';
import { useAuthStore } from './auth-store.ts';
import { useMachineStore, type MachineSettings } from './machine-store.ts';
import { realtime, usePrinterStore } from './session.ts';
import { i18n } from './i18n.ts';
import { base64Blob, saveFile } from './save-file.ts';

// Printing a label from any screen (docs/labels.md): to the printer chosen at a print button (machine
// settings labelPrinter.printerId) when it is attached, else the first attached printer of the agents
// this device uses (any attached printer when none is ticked), or, without a printer, a PDF of the
// same labels downloads. The job's result comes back over the socket (labelJob) and shows as a
// notification to the person who printed.

export const agentOfPrinter = (printerId: string): string => printerId.split('/')[0] ?? '';

/** A printer's name for people (notifications, the jobs table): from the printers known, else its id. */
export function printerName(printerId: string, printers: Iterable<{ id: string; name: string }>): string {
  const names = new Map<string, string>();
  for (const p of printers) names.set(p.id, p.name);
  return names.get(printerId) ?? printerId;
}

/** "5 of 20 printed" when the printer's count is known and short of the job's labels x copies. */
export function printedCount(job: Pick<LabelJob, 'printed' | 'labels' | 'copies'>): string | undefined {
  const total = job.labels * job.copies;
  if (job.printed === null || job.printed === undefined || job.printed >= total) return undefined;
  return t('{{printed}} of {{total}} printed', { printed: job.printed, total });
}

type PrinterChoice = Pick<MachineSettings['labelPrinter'], 'agents' | 'printerId'>;

/** The attached printers this device may use: those of its agents, or all when it names none. */
export function devicePrinters(printers: readonly Printer[], agents: readonly string[]): Printer[] {
  return agents.length ? printers.filter((p) => agents.includes(agentOfPrinter(p.id))) : [...printers];
}

/** The printer this device prints to, if any: the chosen one when attached, else the first of its printers. */
export function pickPrinter(printers: readonly Printer[], choice: PrinterChoice): Printer | undefined {
  const mine = devicePrinters(printers, choice.agents);
  return mine.find((p) => p.id === choice.printerId) ?? mine[0];
}

export const usePrinter = (): Printer | undefined => {
  const printers = usePrinterStore((s) => s.printers);
  const agents = useMachineStore((s) => s.labelPrinter.agents);
  const printerId = useMachineStore((s) => s.labelPrinter.printerId);
  return pickPrinter(printers, { agents, printerId });
};

/** The template a print of `kind` uses on this device when the screen names none (stock: the chosen one). */
export const deviceTemplate = (kind: LabelKind, settings: MachineSettings['labelPrinter']): string | undefined =>
  kind === 'stock' ? settings.stockTemplateId : undefined;

export interface PrintRequest {
  kind: LabelKind;
  source: LabelSource;
  templateId?: string;
  /** Automatic prints (after an adjustment) do not download anything when no printer is attached. */
  auto?: boolean;
}

const t = (key: string, vars?: Record<string, unknown>) => i18n.t(key, vars) as string;

/** Prints, or downloads a PDF of the labels without a printer; answers what happened. */
export async function printOrDownload(req: PrintRequest): Promise<{ job?: LabelJob; downloaded?: boolean }> {
  const { printers } = usePrinterStore.getState();
  const { labelPrinter } = useMachineStore.getState();
  const printer = pickPrinter(printers, labelPrinter);
  const templateId = req.templateId ?? deviceTemplate(req.kind, labelPrinter);
  if (printer) {
    const res = await call('label/print', {
      idempotencyKey: crypto.randomUUID(),
      kind: req.kind,
      printerId: printer.id,
      copies: labelPrinter.copies,
      source: req.source,
      ...(templateId ? { templateId } : {}),
    });
    notifications.show({
      closeButtonProps: { 'aria-label': t('Close') },
      color: 'blue',
      message: t('Label sent to {{printer}}', { printer: printer.name }),
    });
    return { job: res.job };
  }
  if (req.auto) {
    notifications.show({
      closeButtonProps: { 'aria-label': t('Close') },
      color: 'yellow',
      message: t('No label printer is attached: no label was printed'),
    });
    return {};
  }
  const res = await call('label/render', { kind: req.kind, source: req.source, format: 'pdf', ...(templateId ? { templateId } : {}) });
  if (res.pdf) saveFile(base64Blob(res.pdf, 'application/pdf'), `${req.kind}-labels.pdf`);
  notifications.show({
    closeButtonProps: { 'aria-label': t('Close') },
    color: 'blue',
    message:
      res.labels === 1
        ? t('No label printer is attached: the label was downloaded as a PDF')
        : t('No label printer is attached: {{count}} labels were downloaded as a PDF', { count: res.labels }),
  });
  return { downloaded: true };
}

// The result of the person's own jobs, once each.
const told = new Set<string>();
realtime.on('labelJob', ({ job }) => {
  if (job.requestedBy !== useAuthStore.getState().user?.userName) return;
  if (job.state !== 'printed' && job.state !== 'failed' && job.state !== 'held') return;
  const key = `${job.jobId}:${job.state}:${job.reason ?? ''}`;
  if (told.has(key)) return;
  told.add(key);
  const printer = printerName(job.printerId, usePrinterStore.getState().printers);
  const reason = printerProblemInWords(job.reason ?? '', t);
  const count = printedCount(job);
  const message =
    job.state === 'printed'
      ? t('Label printed on {{printer}}', { printer })
      : job.state === 'held'
        ? t('Label waiting at {{printer}}: {{reason}}', { printer, reason })
        : count
          ? t('Label job stopped at {{printer}}, {{count}}: {{reason}}', { printer, count, reason })
          : t('Label not printed on {{printer}}: {{reason}}', { printer, reason });
  notifications.show({
    closeButtonProps: { 'aria-label': t('Close') },
    color: job.state === 'printed' ? 'green' : job.state === 'held' ? 'yellow' : 'red',
    message,
    autoClose: job.state === 'failed' ? false : 5000,
  });
});
