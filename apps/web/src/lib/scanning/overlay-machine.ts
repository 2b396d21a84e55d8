import { BARCODE_DEFAULTS, MIN_SCAN_BOX_PX } from '@floorhand/contract/constants';

export type OverlayState = 'closed' | 'open' | 'scanning';
export type OverlayEvent =
  | { type: 'open' }
  /** The camera stream is running. */
  | { type: 'started' }
  | { type: 'read' }
  /** A click or tap on the overlay. */
  | { type: 'click' }
  /** The scan timeout (timeoutSecs of the barcode settings) ran out. */
  | { type: 'timeout' }
  /** Closed by the app, e.g. on navigation. */
  | { type: 'close' };

export type OverlayEffect =
  | 'startCamera'
  | 'stopCamera'
  | 'startTimer'
  | 'clearTimer'
  /** The read is handed to the scan bus. */
  | 'publish'
  | 'beep'
  | 'buzz'
  | 'vibrate';

export type OverlayContext = { continuous: boolean; beep: boolean; vibrate: boolean };
export type OverlayTransition = { state: OverlayState; effects: OverlayEffect[] };

const close: OverlayEffect[] = ['stopCamera', 'clearTimer'];

/**
 * The scanner overlay of spec section 4. Pure: the caller runs the effects in order. Events that
 * do not apply to the current state are ignored (same state, no effects), except a late 'started'
 * after closing, which stops the camera so a stream that came up after the overlay closed does
 * not keep the camera light on.
 */
export function transition(state: OverlayState, event: OverlayEvent, ctx: OverlayContext): OverlayTransition {
  const readFeedback: OverlayEffect[] = [...(ctx.beep ? (['beep'] as const) : []), ...(ctx.vibrate ? (['vibrate'] as const) : [])];

  if (state === 'closed') {
    if (event.type === 'open') return { state: 'open', effects: ['startCamera', 'startTimer'] };
    if (event.type === 'started') return { state, effects: ['stopCamera'] };
    return { state, effects: [] };
  }

  switch (event.type) {
    case 'started':
      return { state: 'scanning', effects: [] };
    case 'read':
      // Continuous mode restarts the timeout on each read: it is an idle timeout, not a session cap.
      return ctx.continuous
        ? { state: 'scanning', effects: ['publish', ...readFeedback, 'startTimer'] }
        : { state: 'closed', effects: ['publish', ...readFeedback, ...close] };
    case 'click':
    case 'close':
      return { state: 'closed', effects: close };
    // The spec plays the error buzz on every timeout; the beep setting governs the read beep.
    case 'timeout':
      return { state: 'closed', effects: ['buzz', ...close] };
    case 'open':
      return { state, effects: [] };
  }
}

/** Side of the square scan box: 85% of the smaller view dimension, never under 50 px. */
export function scanBoxSize(viewWidth: number, viewHeight: number): number {
  return Math.max(MIN_SCAN_BOX_PX, Math.floor(Math.min(viewWidth, viewHeight) * BARCODE_DEFAULTS.scanBoxFraction));
}
