import { notifications } from '@mantine/notifications';
import type { LabelJob, LabelKind, LabelSource } from '@floorhand/contract/labels';
import type { Printer } from '@floorhand/contract/realtime';
import { call } from './api.ts';
import { useAuthStore } from './auth-store.ts';
import { useMachineStore } from './machine-store.ts';
import { realtime, usePrinterStore } from './session.ts';
import { i18n } from './i18n.ts';

// Printing a label from any screen (docs/labels.md): to the first attached printer of the agents this
// device uses (machine settings; any attached printer when none is chosen), or, without a printer, a
// PNG of the same label downloads. The job's result comes back over the socket (labelJob) and shows as
// a notification to the person who printed.

export const agentOfPrinter = (printerId: string): string => printerId.split('/')[0] ?? '';

/** The printer this device prints to, if any. */
export function pickPrinter(printers: readonly Printer[], agents: readonly string[]): Printer | undefined {
  if (!agents.length) return printers[0];
  return printers.find((p) => agents.includes(agentOfPrinter(p.id)));
}

export const usePrinter = (): Printer | undefined => {
  const printers = usePrinterStore((s) => s.printers);
  const agents = useMachineStore((s) => s.labelPrinter.agents);
  return pickPrinter(printers, agents);
};

export interface PrintRequest {
  kind: LabelKind;
  source: LabelSource;
  templateId?: string;
  /** Automatic prints (after an adjustment) do not download a PNG when no printer is attached. */
  auto?: boolean;
}

const t = (key: string, vars?: Record<string, unknown>) => i18n.t(key, vars) as string;

/** Prints, or downloads the PNG without a printer; answers what happened. */
export async function printOrDownload(req: PrintRequest): Promise<{ job?: LabelJob; downloaded?: boolean }> {
  const { printers } = usePrinterStore.getState();
  const { labelPrinter } = useMachineStore.getState();
  const printer = pickPrinter(printers, labelPrinter.agents);
  if (printer) {
    const res = await call('label/print', { idempotencyKey: crypto.randomUUID(), kind: req.kind, printerId: printer.id, copies: labelPrinter.copies, source: req.source, ...(req.templateId ? { templateId: req.templateId } : {}) });
    notifications.show({ closeButtonProps: { 'aria-label': 'Close' }, color: 'blue', message: t('Label sent to {{printer}}', { printer: printer.name }) });
    return { job: res.job };
  }
  if (req.auto) {
    notifications.show({ closeButtonProps: { 'aria-label': 'Close' }, color: 'yellow', message: t('No label printer is attached: no label was printed') });
    return {};
  }
  const res = await call('label/render', { kind: req.kind, source: req.source, ...(req.templateId ? { templateId: req.templateId } : {}) });
  if (res.png) downloadPng(res.png, `${req.kind}-label.png`);
  notifications.show({ closeButtonProps: { 'aria-label': 'Close' }, color: 'blue', message: t('No label printer is attached: the label was downloaded as a picture') });
  return { downloaded: true };
}

export function downloadPng(base64: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = `data:image/png;base64,${base64}`;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
}

// The result of the person's own jobs, once each.
const told = new Set<string>();
realtime.on('labelJob', ({ job }) => {
  if (job.requestedBy !== useAuthStore.getState().user?.userName) return;
  if (job.state !== 'printed' && job.state !== 'failed' && job.state !== 'held') return;
  const key = `${job.jobId}:${job.state}:${job.reason ?? ''}`;
  if (told.has(key)) return;
  told.add(key);
  const message =
    job.state === 'printed'
      ? t('Label printed on {{printer}}', { printer: job.printerId })
      : job.state === 'held'
        ? t('Label waiting: {{reason}}', { reason: job.reason ?? '' })
        : t('Label not printed: {{reason}}', { reason: job.reason ?? '' });
  notifications.show({ closeButtonProps: { 'aria-label': 'Close' }, color: job.state === 'printed' ? 'green' : job.state === 'held' ? 'yellow' : 'red', message, autoClose: job.state === 'failed' ? false : 5000 });
});
