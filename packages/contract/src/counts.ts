import { z } from 'zod';
import { callBase, code, idempotencyKeySchema, idSchema, scanCode, withErr } from './common.ts';
import type { EntityDef } from './records/schema-model.ts';
import { quantityInput } from './stock.ts';
import { tk } from './i18n.ts';

// Physical inventory (docs/physical-inventory.md): count sheets, counts by scan anchored to the ledger,
// review with variances and thresholds, and posting of count adjustments. A blind counter's answers
// never carry the system quantity: the counter's line schema has no field for it on a blind sheet, and
// review (the only answer with system quantities and variances) needs physicalInventory.post.

// Each is also a word on the screen: a catalogue key.
export const SHEET_STATES = [tk('open'), tk('counting'), tk('review'), tk('posted'), tk('cancelled')] as const;
export type SheetState = (typeof SHEET_STATES)[number];
// Each is also a word on the screen: a catalogue key.
/** counted: waiting for review; recount: a blind recount by another counter is due; accepted, excluded; posted. */
export const LINE_STATUSES = [tk('counted'), tk('recount'), tk('accepted'), tk('excluded'), tk('posted')] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];
export const LINE_DECISIONS = ['accept', 'recount', 'exclude'] as const;
export type LineDecision = (typeof LINE_DECISIONS)[number];

// The sheet and line rules, one function each for the server's services and the web's screens.

/** The state changes a sheet is given by call (counts/sheet/start, submit, cancel). */
export type SheetTransition = 'start' | 'submit' | 'cancel';
/** The states each change is made from, and the state it makes (posting is counts/post's, from review). */
export const SHEET_TRANSITIONS: ReadonlyMap<SheetTransition, { from: readonly SheetState[]; to: SheetState }> = new Map([
  ['start', { from: ['open'], to: 'counting' }],
  ['submit', { from: ['counting'], to: 'review' }],
  ['cancel', { from: ['open', 'counting', 'review'], to: 'cancelled' }],
] as const);
export const mayTransition = (transition: SheetTransition, state: SheetState): boolean =>
  SHEET_TRANSITIONS.get(transition)?.from.includes(state) ?? false;

/** Sheets still counted on: open (the first count starts it), counting, and review (its recounts only). */
export const isSheetCountable = (state: SheetState): boolean => state === 'open' || state === 'counting' || state === 'review';
/** Sheets reviewed (variances shown): once counting is done, in review and after posting. */
export const isSheetReviewable = (state: SheetState): boolean => state === 'review' || state === 'posted';
/** Lines are decided, and the sheet posted, in review only. */
export const isSheetDecidable = (state: SheetState): boolean => state === 'review';

/** The line statuses each decision (counts/decide) changes; lines in any other status are left as they are. */
export const DECIDED_FROM: ReadonlyMap<LineDecision, readonly LineStatus[]> = new Map([
  ['accept', ['counted']],
  ['exclude', ['counted', 'accepted', 'recount']],
  ['recount', ['counted', 'accepted', 'excluded']],
] as const);
export const mayDecide = (decision: LineDecision, status: LineStatus): boolean => DECIDED_FROM.get(decision)?.includes(status) ?? false;
/** The reason of every count adjustment in the ledger. */
export const COUNT_REASON = 'physical count';
/** Lines one review page answers at most. */
export const REVIEW_PAGE_MAX = 1000;
/** Locations a sheet covers at most. */
export const SHEET_LOCATIONS_MAX = 5000;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, tk('must be a date as YYYY-MM-DD'));

export const sheetSchema = z.object({
  _id: z.string(),
  _rev: z.number().int(),
  /** CS and a number, what people call the sheet. */
  code: z.string(),
  description: z.string(),
  warehouse: z.string(),
  state: z.enum(SHEET_STATES),
  /** Blind: the system quantity appears nowhere to a counter. */
  blind: z.boolean(),
  /** User names of the counters; empty: anyone with Physical Inventory may count. */
  assignees: z.array(z.string()),
  locationCount: z.number().int(),
  lineCount: z.number().int(),
  createdBy: z.string(),
  createdAt: z.string(),
  postedAt: z.string().nullable(),
});
export type Sheet = z.infer<typeof sheetSchema>;

/** A count line as a counter sees it: what was scanned and the caller's own count. No system quantity on a blind sheet. */
export const counterLineSchema = z.object({
  lineId: z.string(),
  location: z.string(),
  stockId: z.string().nullable(),
  partNumber: z.string(),
  description: z.string(),
  lot: z.string().nullable(),
  serial: z.string().nullable(),
  /** Stock the system did not expect here (an unknown label, or a record of another location). */
  found: z.boolean(),
  status: z.enum(LINE_STATUSES),
  /** The caller's own count in the current round; null when someone else counted it or a recount is due. */
  myCount: z.number().nullable(),
  /** Only on a sheet that is not blind. */
  expected: z.number().optional(),
});
export type CounterLine = z.infer<typeof counterLineSchema>;

/** A line as review shows it: system quantity at the scan, count, variance. */
export const reviewLineSchema = z.object({
  lineId: z.string(),
  location: z.string(),
  stockId: z.string().nullable(),
  partNumber: z.string(),
  description: z.string(),
  lot: z.string().nullable(),
  serial: z.string().nullable(),
  found: z.boolean(),
  /** Expected stock of a counted location that nobody scanned: counted as 0. */
  notFound: z.boolean(),
  status: z.enum(LINE_STATUSES),
  /** What the system held at the scan (the anchor movement's quantity after). */
  systemQty: z.number(),
  counted: z.number(),
  variance: z.number(),
  /** Variance over the system quantity in percent; null when the system held 0. */
  variancePct: z.number().nullable(),
  /** The stock moved between the scan and now: posting books the variance on top of what it holds now. */
  movedSince: z.boolean(),
  /**
   * Where the counted stock record is now (its location code; null for found stock that has no record
   * yet). Differs from `location` when it was moved after the scan: the post leaves it there.
   */
  locationNow: z.string().nullable(),
  /** Two counts of one round disagreed, or a serial counted above 1 (allowSwsgt1). */
  flags: z.array(z.enum(['disputed', 'serialOver1', 'overThreshold'])),
  countedBy: z.string().nullable(),
  round: z.number().int(),
});
export type ReviewLine = z.infer<typeof reviewLineSchema>;

export const reviewSummarySchema = z.object({
  lines: z.number().int(),
  withVariance: z.number().int(),
  recount: z.number().int(),
  excluded: z.number().int(),
  accepted: z.number().int(),
  movedSince: z.number().int(),
  /** Sum of the variances (counted minus system) of the lines not excluded. */
  netVariance: z.number(),
  /** Sum of the absolute variances of the lines not excluded. */
  absVariance: z.number(),
  /** Locations of the sheet that nobody scanned. */
  uncountedLocations: z.number().int(),
});

/** One line refused by a post, with every reason. */
export const invalidLineSchema = z.object({
  lineId: z.string(),
  stockId: z.string().nullable(),
  location: z.string(),
  problems: z.array(z.string()),
});
export type InvalidLine = z.infer<typeof invalidLineSchema>;

export const thresholdSchema = z.object({ warehouse: z.string(), maxQty: z.number().nullable(), maxPct: z.number().nullable() });

/** Days between counts: the warehouse's, and the locations' own (which win over the warehouse's). */
export const frequencySchema = z.object({
  warehouse: z.string(),
  days: z.number().int().nullable(),
  locations: z.array(z.object({ code: z.string(), days: z.number().int() })),
});
/** Days a count frequency may be at most (ten years). */
export const FREQUENCY_DAYS_MAX = 3660;

/** Variance of the sheet per location, the locations with the largest absolute variance first (the review chart). */
export const locationVarianceSchema = z.object({ location: z.string(), over: z.number(), short: z.number() });
/** Locations the review chart shows at most. */
export const CHART_LOCATIONS_MAX = 15;

/**
 * A CSV row of counts/sheet/import: one count sheet. Lists (locations, counters) are one cell with '|'
 * between the values; a row gives a list or a range of locations, or neither (every active location),
 * and `due` keeps only the locations due by their count frequency.
 */
export const countSheetEntity: EntityDef = {
  type: 'countSheet',
  title: 'Count sheet',
  idFieldName: 'warehouse',
  fields: [
    { name: 'warehouse', label: tk('Warehouse'), dataType: 'string', conditions: { required: true, max: 40 } },
    {
      name: 'locations',
      label: tk('Locations'),
      dataType: 'array',
      conditions: { max: 5000 },
      items: { name: 'location', label: tk('Location'), dataType: 'string', conditions: { max: 40 } },
    },
    { name: 'fromLocation', label: tk('From Location'), dataType: 'string', conditions: { max: 40 } },
    { name: 'toLocation', label: tk('To Location'), dataType: 'string', conditions: { max: 40 } },
    {
      name: 'counters',
      label: tk('Counters'),
      dataType: 'array',
      conditions: { max: 50 },
      items: { name: 'counter', label: tk('Counter'), dataType: 'string', conditions: { max: 100 } },
    },
    { name: 'blind', label: tk('Blind'), dataType: 'boolean' },
    { name: 'due', label: tk('Due'), dataType: 'boolean' },
    { name: 'description', label: tk('Description'), dataType: 'string', conditions: { max: 200 } },
  ],
};
export const COUNT_SHEET_CSV_COLUMNS: readonly string[] = countSheetEntity.fields.map((f) => f.name);
/** Rows (sheets) one import creates at most, and its body limit. */
export const SHEET_IMPORT_ROWS_MAX = 500;
export const SHEET_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
const importProblemSchema = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export const sheetImportReportSchema = z.object({
  rows: z.number().int(),
  created: z.number().int(),
  rejectedCount: z.number().int(),
  rejected: z.array(importProblemSchema),
});
export type SheetImportReport = z.infer<typeof sheetImportReportSchema>;

const sheetRef = { sheetId: idSchema, _rev: z.number().int().min(1).optional() };
const sheetAnswer = withErr({ sheet: sheetSchema.optional() });

export const countCalls = {
  'counts/sheet/list': {
    locId: undefined,
    auth: 'required',
    /** The physicalInventory preferences: fromDate, filterSheetOpen, filterSheetSelf, sheet, warehouse. */
    body: callBase.extend({
      fromDate: isoDate.optional(),
      filterSheetOpen: z.boolean().default(false),
      filterSheetSelf: z.boolean().default(false),
      sheet: z.string().max(40).optional(),
      warehouse: code.optional(),
    }),
    response: withErr({ sheets: z.array(sheetSchema).optional(), more: z.boolean().optional() }),
  },
  'counts/sheet/create': {
    locId: undefined,
    auth: 'required',
    /** Locations as a list of codes, or a range fromLocation..toLocation (inclusive, by code); neither: every active location. */
    body: callBase.extend({
      warehouse: code,
      description: z.string().max(200).default(''),
      locations: z.array(scanCode.max(40)).max(SHEET_LOCATIONS_MAX).optional(),
      fromLocation: scanCode.max(40).optional(),
      toLocation: scanCode.max(40).optional(),
      assignees: z.array(z.string().min(1).max(100)).max(50).default([]),
      /** The creator's syscm preference off: blind. */
      blind: z.boolean().default(true),
      /** Only the locations (of the list, range or warehouse) due by their count frequency (counts/frequency/put). */
      due: z.boolean().default(false),
    }),
    response: sheetAnswer,
  },
  'counts/sheet/import': {
    locId: undefined,
    auth: 'required',
    /** CSV with a header of COUNT_SHEET_CSV_COLUMNS, one sheet a row; all or nothing (refused: 400 whose detail is the report, every problem of every row). */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema.optional(), csv: z.string().min(1).max(SHEET_IMPORT_MAX_BYTES) }),
    response: withErr({ report: sheetImportReportSchema.optional(), sheets: z.array(sheetSchema).optional() }),
  },
  'counts/sheet/pdf': {
    locId: undefined,
    auth: 'required',
    /**
     * Answers application/pdf: the printable count sheet, its locations in walk order with the stock
     * expected there and a blank "Counted" column; the expected quantity only on a sheet that is not blind.
     */
    body: callBase.extend({ sheetId: idSchema }),
    response: withErr({}),
  },
  'counts/sheet/get': {
    locId: undefined,
    auth: 'required',
    /** With location: only the lines counted there. */
    body: callBase.extend({ sheetId: idSchema, location: scanCode.max(40).optional() }),
    response: withErr({
      sheet: sheetSchema.optional(),
      locations: z.array(z.object({ code: z.string(), visited: z.boolean() })).optional(),
      lines: z.array(counterLineSchema).optional(),
    }),
  },
  'counts/sheet/start': { locId: undefined, auth: 'required', body: callBase.extend(sheetRef), response: sheetAnswer },
  /** counting → review: expected stock of scanned locations nobody counted gets a 0 line; lines over the threshold go to recount. */
  'counts/sheet/submit': { locId: undefined, auth: 'required', body: callBase.extend(sheetRef), response: sheetAnswer },
  'counts/sheet/cancel': { locId: undefined, auth: 'required', body: callBase.extend(sheetRef), response: sheetAnswer },
  'counts/scanLocation': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ sheetId: idSchema, location: scanCode.max(40) }),
    response: withErr({ location: z.string().optional(), lines: z.array(counterLineSchema).optional() }),
  },
  'counts/record': {
    locId: undefined,
    auth: 'required',
    /**
     * One count: the scanned stock label in the scanned location. qty may be left out for a serial (1).
     * A label the system does not know is found stock: partNumber (and lot or serial as tracked) say what it is.
     */
    body: callBase.extend({
      idempotencyKey: idempotencyKeySchema,
      sheetId: idSchema,
      location: scanCode.max(40),
      stockId: scanCode.max(40).optional(),
      qty: quantityInput.optional(),
      partNumber: z.string().min(1).max(60).optional(),
      lot: scanCode.max(60).optional(),
      serial: scanCode.max(60).optional(),
      /** Preference: a serial counted above 1 is flagged for review instead of refused. */
      allowSwsgt1: z.boolean().default(false),
      /** Preference: the count is posted at once (needs physicalInventory.post). */
      adjustWithCount: z.boolean().default(false),
    }),
    response: withErr({
      line: counterLineSchema.optional(),
      /** The serial was counted already: counted once. */
      duplicate: z.boolean().optional(),
      /** adjustWithCount: the count was posted. */
      posted: z.boolean().optional(),
    }),
  },
  'counts/review': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({
      sheetId: idSchema,
      onlyVariances: z.boolean().default(false),
      offset: z.number().int().min(0).max(10_000_000).default(0),
      limit: z.number().int().min(1).max(REVIEW_PAGE_MAX).default(200),
    }),
    response: withErr({
      sheet: sheetSchema.optional(),
      summary: reviewSummarySchema.optional(),
      /** The chart of the summary: the locations with the largest absolute variance (lines not excluded). */
      byLocation: z.array(locationVarianceSchema).optional(),
      lines: z.array(reviewLineSchema).optional(),
      more: z.boolean().optional(),
    }),
  },
  'counts/decide': {
    locId: undefined,
    auth: 'required',
    /** The lines named, or with all: every line still counted (not recount, not decided). */
    body: callBase.extend({
      sheetId: idSchema,
      decision: z.enum(LINE_DECISIONS),
      lineIds: z.array(idSchema).max(50_000).default([]),
      all: z.boolean().default(false),
    }),
    response: withErr({ changed: z.number().int().optional() }),
  },
  'counts/post': {
    locId: undefined,
    auth: 'required',
    /** All or nothing; a refused post lists every invalid line in err.detail (JSON: { invalid: InvalidLine[] }). */
    body: callBase.extend({ idempotencyKey: idempotencyKeySchema, sheetId: idSchema }),
    response: withErr({ sheet: sheetSchema.optional(), movements: z.number().int().optional(), created: z.number().int().optional() }),
  },
  'counts/export': {
    locId: undefined,
    auth: 'required',
    /** The sheet's lines as CSV: with system quantities and variances only from review on, and for reviewers. */
    body: callBase.extend({ sheetId: idSchema }),
    response: withErr({ csv: z.string().optional(), fileName: z.string().optional() }),
  },
  'counts/threshold/get': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ warehouse: code }),
    response: withErr({ threshold: thresholdSchema.optional() }),
  },
  'counts/threshold/put': {
    locId: undefined,
    auth: 'required',
    /** A line whose |variance| exceeds maxQty or whose |variance %| exceeds maxPct goes to recount at submit. */
    body: callBase.extend({
      warehouse: code,
      maxQty: quantityInput.nullable(),
      maxPct: z.number().min(0).max(100_000).nullable(),
    }),
    response: withErr({ threshold: thresholdSchema.optional() }),
  },
  'counts/frequency/get': {
    locId: undefined,
    auth: 'required',
    body: callBase.extend({ warehouse: code }),
    response: withErr({ frequency: frequencySchema.optional() }),
  },
  'counts/frequency/put': {
    locId: undefined,
    auth: 'required',
    /**
     * Days between counts of the warehouse, or with locations of those locations (null: none of its own).
     * A location is due when no posted sheet counted it (scanned it) within its days.
     */
    body: callBase.extend({
      warehouse: code,
      locations: z.array(scanCode.max(40)).max(SHEET_LOCATIONS_MAX).optional(),
      days: z.number().int().min(1).max(FREQUENCY_DAYS_MAX).nullable(),
    }),
    response: withErr({ frequency: frequencySchema.optional() }),
  },
} as const;

/** The detail of a refused post. */
export const postRefusalSchema = z.object({ invalid: z.array(invalidLineSchema) });

/**
 * A `counts/record` refused for want of what the scan is (found stock), when the server knows part of
 * it (issue 25): the scan was an item's barcode (`partNumber`), or a serial on hand in more than one
 * item (`serial`). The refusal's `detail` is this as JSON; the counting screen opens the found-stock
 * form filled with it.
 */
export const foundStockHintSchema = z.object({ found: z.object({ partNumber: z.string().optional(), serial: z.string().optional() }) });
export type FoundStockHint = z.infer<typeof foundStockHintSchema>;
/**
 * What a refused label scan asks for, in the refusal's detail (the message is in the screen's language,
 * so the screen reads this, not the words): the counted quantity, or the part number of found stock.
 */
export const countAskSchema = z.object({ ask: z.enum(['qty', 'partNumber']) });
export type CountAsk = z.infer<typeof countAskSchema>['ask'];
export const countAskDetail = (ask: CountAsk): string => JSON.stringify({ ask });

/** Variance in percent of the system quantity, rounded to 0.1; null when the system held 0. */
export function variancePct(systemQty: number, counted: number): number | null {
  if (systemQty === 0) return null;
  return Math.round(((counted - systemQty) / systemQty) * 1000) / 10;
}
