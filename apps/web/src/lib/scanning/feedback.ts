import { notifications } from '@mantine/notifications';
import i18n from 'i18next';
import { useMachineStore } from '../machine-store.ts';
import { playBeep, playErrorBuzz, vibrate } from './beep.ts';
import { refused, type Refused } from './meaning.ts';
import type { Scan } from './scan-bus.ts';
import { tk } from '@floorhand/contract/i18n';

/** What a broken burst says: the scanner's keys came too slowly at first, so the code was not read whole. */
export const SCAN_NOT_READ = tk('Scan not read, scan again');

/**
 * A scan a screen took (its table said so): the good-read beep and a short vibration, where App
 * Settings allow. Not for the camera's and image files' reads: the scanner overlay gave them already.
 */
export function readFeedback(scan?: Pick<Scan, 'source'>): void {
  if (scan && (scan.source === 'camera' || scan.source === 'file')) return;
  const { beep, vibrate: shake } = useMachineStore.getState().barcode;
  if (beep) playBeep();
  if (shake) vibrate(80);
}

/** The refused scan's feedback, where App Settings allow it: the error buzz and a double-length vibration. */
export function refusedFeedback(): void {
  const { beep, vibrate: shake } = useMachineStore.getState().barcode;
  if (beep) playErrorBuzz();
  if (shake) vibrate(600);
}

/** A broken wedge burst: said on screen (never typed into a field), with the refused feedback. */
export function scanNotRead(): void {
  refusedFeedback();
  notifications.show({ id: 'scan-not-read', color: 'red', message: i18n.t(SCAN_NOT_READ), autoClose: 4000, withBorder: true });
}

/**
 * A scan a screen's table refused: the refused feedback and the reason on screen, under the scan's
 * code when given (which of several scans was refused). One refusal shows at a time: the next one
 * replaces it, so a worker scanning on sees the reason for the last scan.
 */
export function refuseScan({ message, params }: Pick<Refused, 'message' | 'params'>, scanned?: string): void {
  refusedFeedback();
  // Each refusal a notice of its own id: hidden and shown again under one id in the same moment, the
  // notice's closing transition went on and took the new one away a moment after it showed.
  if (lastRefusal) notifications.hide(lastRefusal);
  lastRefusal = `scan-refused-${++refusals}`;
  notifications.show({
    id: lastRefusal,
    color: 'red',
    title: scanned,
    message: i18n.t(message, params),
    autoClose: 5000,
    withBorder: true,
  });
}

let lastRefusal: string | null = null;
let refusals = 0;

/** What a scan no screen took says: the page open reads no scans (an administration page). */
export const SCAN_NOT_HERE = tk('{{code}}: scans are not read on this page');

/** What scans a screen held while it was not ready say when it closed first (useScans' `ready`). */
export const SCAN_SCREEN_LEFT = tk('{{code}}: not read, the screen closed before it was ready');

/**
 * Scans no screen read, refused, the last one named: they waited for a screen in vain (the scan bus's
 * `setUnread`, SCAN_NOT_HERE), or the screen that held them closed before it was ready (SCAN_SCREEN_LEFT).
 */
export function scansNotRead(scans: readonly Scan[], message: string = SCAN_NOT_HERE): void {
  const last = scans.at(-1);
  if (last) refuseScan(refused(message, { code: last.text }));
}
