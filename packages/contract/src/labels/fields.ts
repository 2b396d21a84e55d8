import { tk } from '../i18n.ts';
import { isTimekeeper, type UserPerms } from '../perms.ts';

// The kinds of label, the fields each may use and the limits of templates and jobs (docs/labels.md).

/** `package`: a shipping package's label (its id as a barcode, order, customer, carrier, tracking, weight), printed with its packing list. */
export const LABEL_KINDS = ['stock', 'pick', 'orderTraveller', 'loc', 'staff', 'package'] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

/** The fields each kind of label may name, with the sample value of the preview. */
export const LABEL_FIELDS: ReadonlyMap<LabelKind, ReadonlyMap<string, string>> = new Map<LabelKind, ReadonlyMap<string, string>>([
  [
    'stock',
    new Map([
      ['stockId', 'S000000007'],
      ['partNumber', 'PN-10020'],
      ['description', 'Hex bolt M8 x 40, zinc'],
      ['warehouse', 'MAIN'],
      ['location', 'A-01-02'],
      ['qty', '25'],
      ['uom', 'EA'],
      ['lot', 'LOT-2291'],
      ['serial', ''],
      ['condition', 'NEW'],
      ['receivedDate', '2026-11-02'],
      ['printedDate', '2026-11-25'],
    ]),
  ],
  [
    'pick',
    new Map([
      ['orderId', 'SO-10442'],
      ['orderType', 'sos'],
      ['line', '3'],
      ['stockId', 'S000000007'],
      ['partNumber', 'PN-10020'],
      ['description', 'Hex bolt M8 x 40, zinc'],
      ['location', 'A-01-02'],
      ['qty', '12'],
      ['uom', 'EA'],
      ['lot', 'LOT-2291'],
      ['serial', ''],
      ['picker', 'Chris Clerk'],
      ['printedDate', '2026-11-25'],
    ]),
  ],
  [
    'orderTraveller',
    new Map([
      ['orderId', 'WO-2031'],
      ['operation', '20'],
      ['description', 'Weld frame'],
      ['workCenter', 'WELD-1'],
      ['partNumber', 'FRAME-200'],
      ['qty', '40'],
      ['dueDate', '2026-12-01'],
      ['plannedTime', '45 min'],
      ['taskBarcode', 'WO-2031-20'],
      ['printedDate', '2026-11-25'],
    ]),
  ],
  [
    'loc',
    new Map([
      ['location', 'A-01-02'],
      ['warehouse', 'MAIN'],
      ['description', 'Aisle A, bay 1, level 2'],
      ['locationType', 'bin'],
    ]),
  ],
  [
    'staff',
    new Map([
      ['name', 'Chris Clerk'],
      ['badge', 'B-000123'],
      ['userName', 'clerk'],
      ['org', 'Demo Manufacturing'],
    ]),
  ],
  [
    'package',
    new Map([
      ['packageNo', 'SO-10442-1'],
      ['orderId', 'SO-10442'],
      ['orderType', 'sos'],
      ['customer', 'Acme Trading, Dock 4'],
      ['warehouse', 'MAIN'],
      ['packageType', 'box'],
      ['weight', '4.2 kg'],
      ['dimensions', '40 x 30 x 20 cm'],
      ['carrier', 'UPS'],
      ['service', 'Ground'],
      ['tracking', '1Z999AA10123456784'],
      ['items', '3'],
      ['printedDate', '2026-11-25'],
    ]),
  ],
]);

/**
 * Who may print (or download) another person's staff badge: administrators and timekeepers
 * (timeclockAdmin). Everyone else prints only their own: a badge punches the clock without a PIN.
 */
export const mayPrintAnyBadge = (perms: UserPerms): boolean => isTimekeeper(perms);

/** `{{ name }}`: a field reference of a template. */
export const FIELD_PATTERN = /\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g;

/**
 * `{{t:Qty}}`: a word of the label itself (not data), printed in the language of whoever prints or
 * downloads the label (docs/labels.md, "Words in the printer's language"). Only LABEL_WORDS.
 */
export const WORD_PATTERN = /\{\{\s*t:\s*([^{}]*?)\s*\}\}/g;

/** The words a template may write as `{{t:…}}`, in English; each has its translation in the catalogue. */
export const LABEL_WORDS: ReadonlySet<string> = new Set<string>([
  tk('Qty'),
  tk('Lot'),
  tk('Serial'),
  tk('Condition'),
  tk('Received'),
  tk('Location'),
  tk('Warehouse'),
  tk('Description'),
  tk('Order'),
  tk('Line'),
  tk('Operation'),
  tk('Work center'),
  tk('Part number'),
  tk('Due'),
  tk('Picked by'),
  tk('Ship to'),
  tk('Customer'),
  tk('Carrier'),
  tk('Items'),
  tk('Weight'),
  tk('Tracking'),
  tk('Package'),
  tk('Badge'),
]);

/** Printer resolutions (dots per inch) and their dots per millimetre. */
export const LABEL_DPI = [152, 203, 300, 600] as const;
export const DPMM_OF_DPI: ReadonlyMap<number, number> = new Map([
  [152, 6],
  [203, 8],
  [300, 12],
  [600, 24],
]);
export const LABEL_MM_MIN = 10;
export const LABEL_MM_MAX = 300;
export const ZPL_MAX_CHARS = 20_000;
/** Labels one print call may make (a range of locations); 1,000 is the figure of the bench. */
export const LABELS_PER_JOB_MAX = 2000;
export const LABEL_COPIES_MAX = 999;
/** Labels one PDF download may hold (one page each, rendered on the server); more is refused with a message. */
export const LABELS_PER_PDF_MAX = 200;
export const LABEL_DOWNLOAD_FORMATS = ['png', 'pdf'] as const;
