import { create } from 'zustand';
import type { MachineSettings } from '../machine-store.ts';

export type BarcodeSettings = MachineSettings['barcode'];
export type OpenScannerOptions = {
  /** Stay open after a read (counting screens); the timeout then restarts on each read. */
  continuous?: boolean;
  /** Scan with these settings instead of the saved ones: App Settings tests a choice before saving. */
  settings?: BarcodeSettings;
};

type ScannerRequest = {
  open: boolean;
  continuous: boolean;
  settings: BarcodeSettings | null;
  openedAt: number;
  /** The page (path) the scanner was opened on: it closes when the page changes from this one. */
  openedOn: string;
};

/** What the app asked of the one scanner overlay; the overlay's own state machine does the rest. */
export const useScannerStore = create<ScannerRequest>()(() => ({
  open: false,
  continuous: false,
  settings: null,
  openedAt: 0,
  openedOn: '',
}));

/** Opens the global scanner overlay from anywhere; its reads arrive on scanBus with source 'camera' or 'file'. */
export function openScanner({ continuous = false, settings }: OpenScannerOptions = {}): void {
  useScannerStore.setState({
    open: true,
    continuous,
    settings: settings ?? null,
    openedAt: performance.now(),
    openedOn: window.location.pathname,
  });
}

/**
 * The page is now `pathname`: the scanner closes if it was opened on another page. Not on every
 * report of the page: React runs the shell's effect for a page change when it gets to it, and a tap
 * on Scan that lands between the new page's render and that effect (a busy handheld right after
 * the login) could be closed at once by the late report of the page it was tapped on. A guard, not
 * the cause of the lost tap CI saw (that was the overlay's own effect, docs/scanning.md).
 */
export function closeScannerOnPageChange(pathname: string): void {
  const s = useScannerStore.getState();
  if (s.open && pagePath(s.openedOn) !== pagePath(pathname)) closeScanner();
}

/** The browser's path is percent-encoded, the router's may not be. */
function pagePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

export function closeScanner(): void {
  useScannerStore.setState({ open: false });
}
