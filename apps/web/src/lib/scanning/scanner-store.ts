import { create } from 'zustand';
import type { MachineSettings } from '../machine-store.ts';

export type BarcodeSettings = MachineSettings['barcode'];
export type OpenScannerOptions = {
  /** Stay open after a read (counting screens); the timeout then restarts on each read. */
  continuous?: boolean;
  /** Scan with these settings instead of the saved ones: App Settings tests a choice before saving. */
  settings?: BarcodeSettings;
};

type ScannerRequest = { open: boolean; continuous: boolean; settings: BarcodeSettings | null; openedAt: number };

/** What the app asked of the one scanner overlay; the overlay's own state machine does the rest. */
export const useScannerStore = create<ScannerRequest>()(() => ({ open: false, continuous: false, settings: null, openedAt: 0 }));

/** Opens the global scanner overlay from anywhere; its reads arrive on scanBus with source 'camera' or 'file'. */
export function openScanner({ continuous = false, settings }: OpenScannerOptions = {}): void {
  useScannerStore.setState({ open: true, continuous, settings: settings ?? null, openedAt: performance.now() });
}

export function closeScanner(): void {
  useScannerStore.setState({ open: false });
}
