// Business constants and limits of spec section 9, with the spec's names. Declared once here;
// the web app and the server import them.

export const APP_ID = 'floorhand';
/** orgId sent by the client before login (spec section 7). */
export const ANONYMOUS_ORG_ID = 'demo';

export const MRU_LIST_LENGTH = 10;
export const PACK_PICK_MAX_ROWS = 499;
export const ZERO_QTY_MONTHS_DEFAULT = 1;
export const LABOR_DEFAULTS = { displayScale: 1, roundToMinutes: 6, batchGraceTimeSecs: 180 } as const;
export const STOCK_ADJUST_CLEAR_DST_LOC_DEFAULT = true;
export const LABEL_COPIES_DEFAULT = 1;

export const SCREEN_SAVER_DEFAULT_MINUTES = 5;
export const SCREEN_SAVER_IDLE_CHECK_MS = 5000;
export const SCREEN_SAVER_LIBRARY_TIMEOUT_MS = 10_000;
export const SCREEN_SAVER_LOGO = { width: 272, height: 50 } as const;

export const KIOSK_SESSION_TIMEOUT_DEFAULT_MINUTES = 15;
/** Workstation id default: a fixed prefix plus a random number below 10000. */
export const WORKSTATION_ID_PREFIX = 'WS';
export const WORKSTATION_ID_RANDOM_BELOW = 10_000;

/** Token refresh lead: max(10% of lifetime, 5500 ms). */
export const TOKEN_REFRESH_LEAD_FRACTION = 0.1;
export const TOKEN_REFRESH_LEAD_MIN_MS = 5500;
/** Activity refresh throttle: min(10% of lifetime, 60000 ms). */
export const ACTIVITY_REFRESH_THROTTLE_FRACTION = 0.1;
export const ACTIVITY_REFRESH_THROTTLE_MAX_MS = 60_000;
export const SESSION_KILL_LEAD_MS = 500;
export const LOGGED_OUT_DIALOG_DELAY_MS = 500;
export const LOGGED_OUT_DIALOG_SIZE = { width: 500, height: 350 } as const;

export const SOCKET_RETRY_INITIAL_MS = 1000;
export const SOCKET_RETRY_MAX_MS = 32_000;
export const SOCKET_SEND_TIMEOUT_MS = 10_000;
export const SOCKET_LIBRARY_DEFAULTS = { reconnectionDelay: 1000, reconnectionDelayMax: 5000, timeout: 20_000 } as const;

export const NOTIFICATION_TIMEOUT_MS = 5000;
export const DIALOG_OK_FOCUS_DELAY_MS = 50;
export const SITE_DATA_ID_MAX = 35;

export const BARCODE_FORMATS_SUPPORTED = [
  'QR_CODE',
  'AZTEC',
  'CODABAR',
  'CODE_39',
  'CODE_93',
  'CODE_128',
  'DATA_MATRIX',
  'MAXICODE',
  'ITF',
  'EAN_13',
  'EAN_8',
  'PDF_417',
  'RSS_14',
  'RSS_EXPANDED',
  'UPC_A',
  'UPC_E',
  'UPC_EAN_EXTENSION',
] as const;
export type BarcodeFormat = (typeof BARCODE_FORMATS_SUPPORTED)[number];

export const BARCODE_DEFAULTS = {
  formats: ['CODE_39', 'CODE_93', 'CODE_128', 'QR_CODE'] as BarcodeFormat[],
  fps: 10,
  timeoutSecs: 20,
  beep: true,
  vibrate: true,
  vibrateMs: 350,
  scanBoxFraction: 0.85,
  overlayZIndex: 7000,
  preview: { width: 120, height: 90 },
} as const;
export const MIN_SCAN_BOX_PX = 50;
/** Keyboard wedge: keystrokes within 40 ms are joined; Enter or Tab ends the code. */
export const WEDGE_KEY_GAP_MS = 40;
export const SIMPLE_DIALOG = { width: 560, maxWidth: '80vw', maxHeight: '55vh' } as const;
export const SCANNER_LIBRARY_DEFAULTS = { fps: 2, rememberLastCamera: true, flip: true, scanTypes: ['camera', 'file'] } as const;

export const UI_BREAKPOINTS = { sm: 600, md: 1024, lg: 1440, xl: 1920 } as const;
export const RESIZE_DEBOUNCE_MS = 16;

/** Minimum touch target (design: gloves on handhelds). */
export const MIN_TOUCH_TARGET_PX = 44;

/** Header names of spec section 7. */
export const HEADERS = {
  debug: 'x-debug',
  clientTime: 'x-client-time',
  timeZone: 'x-time-zone',
  tzOffset: 'x-tz-offset',
  humanToken: 'x-human-token',
} as const;

/** The brand's favicon sizes in px (spec section 7: icons by size). */
export const FAVICON_SIZES = [16, 32, 48, 64, 128, 192] as const;
