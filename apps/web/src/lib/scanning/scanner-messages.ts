// The scanner and camera messages of spec section 8, worded once here for every screen.

import { tk } from '@floorhand/contract/i18n';

export const CAMERA_SECURE_CONTEXT_ONLY = tk('Camera access is only supported in a secure context (https or localhost).');
export const CAMERA_STREAMING_NOT_SUPPORTED = tk('Camera streaming is not supported by this browser.');
export const CAMERA_DEVICES_QUERY_FAILED = tk('Unable to query supported devices, unknown error.');
export const SCANNER_PAUSED = tk('Scanner paused');

export const userMediaError = (error: unknown): string => tk(`Error getting user media: ${describeError(error)}`);
export const qrCodeParseError = (error: unknown): string => tk(`QR code parse error: ${describeError(error)}`);

export const CAMERA_MISSING_TITLE = tk('Camera missing');
/** The dialog's neutral button goes to the appSettings route. */
export const CAMERA_MISSING_BUTTON = { label: tk('App Settings'), route: 'appSettings' } as const;

export type CameraMissingReason = 'notConfigured' | 'inaccessible';
export type CameraMissingDialog = {
  title: typeof CAMERA_MISSING_TITLE;
  message: string;
  detail: string;
  button: typeof CAMERA_MISSING_BUTTON;
};

const CAMERA_MISSING_TEXT: Record<CameraMissingReason, { message: string; detail: string }> = {
  notConfigured: {
    message: tk('No camera has been configured for this device'),
    detail: tk('Please re-configure the barcode scanning camera in the application settings.'),
  },
  inaccessible: {
    message: tk('The camera configured for barcode scanning cannot be accessed.'),
    detail: tk(
      'Check that the camera is connected and powered on, that this site has permission to use it, and that the browser settings allow camera access; then re-configure it in the application settings if needed.',
    ),
  },
};

export function cameraMissingDialog(reason: CameraMissingReason): CameraMissingDialog {
  return { title: CAMERA_MISSING_TITLE, ...CAMERA_MISSING_TEXT[reason], button: CAMERA_MISSING_BUTTON };
}

export type CameraEnvironment = { isSecureContext: boolean; mediaDevices?: { getUserMedia?: unknown } };

/** The message that stops a camera scan before it starts, or null when the browser can stream. */
export function cameraPreflight(
  env: CameraEnvironment = { isSecureContext: globalThis.isSecureContext, mediaDevices: globalThis.navigator?.mediaDevices },
): string | null {
  if (!env.isSecureContext) return CAMERA_SECURE_CONTEXT_ONLY;
  if (typeof env.mediaDevices?.getUserMedia !== 'function') return CAMERA_STREAMING_NOT_SUPPORTED;
  return null;
}

// getUserMedia failures that mean "this device's configured camera cannot be used", as opposed
// to a programming or browser error, which is shown as an error getting user media.
const INACCESSIBLE_ERRORS = new Set(['NotAllowedError', 'NotFoundError', 'NotReadableError', 'OverconstrainedError', 'SecurityError']);

export function isCameraInaccessibleError(error: unknown): boolean {
  return isNamedError(error) && INACCESSIBLE_ERRORS.has(error.name);
}

// DOMException is not an Error subclass in every realm (jsdom, older WebViews).
const isNamedError = (error: unknown): error is { name: string; message: string } =>
  typeof error === 'object' && error !== null && typeof (error as Error).name === 'string' && typeof (error as Error).message === 'string';

/** One line for any thrown value; DOMException names carry the reason (NotAllowedError, ...). */
export function describeError(error: unknown): string {
  if (isNamedError(error)) return error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
