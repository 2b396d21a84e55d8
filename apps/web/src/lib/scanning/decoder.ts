import { BARCODE_FORMATS_SUPPORTED, type BarcodeFormat } from '@floorhand/contract/constants';
import {
  prepareZXingModule,
  purgeZXingModule,
  readBarcodes,
  type ReadInputBarcodeFormat,
  type ReadOutputBarcodeFormat,
  type ReaderOptions,
  type ReadResult,
  type ZXingModuleOverrides,
} from 'zxing-wasm/reader';

/** What the decoder needs of an ImageData; Node tests build it from a PNG. */
export type RgbaImage = { width: number; height: number; data: Uint8ClampedArray };
export type DecodedBarcode = { text: string; format: BarcodeFormat };
/** Speed and effort knobs for the camera loop and the benchmark; zxing-wasm's defaults otherwise. */
export type DecodeOptions = Pick<ReaderOptions, 'tryHarder' | 'tryRotate' | 'tryInvert' | 'tryDownscale' | 'isPure' | 'maxNumberOfSymbols'>;

/**
 * The spec's (ZXing) format names and the zxing-wasm formats read for each. Code 39 leaves out
 * Code 32 and PZN, which zxing would re-encode into pharmacy numbers. UPC_EAN_EXTENSION has no
 * entry: zxing-cpp reads the 2/5-digit add-on only as part of an EAN/UPC symbol, never alone.
 */
export const ZXING_READ_FORMATS: Record<BarcodeFormat, readonly ReadInputBarcodeFormat[]> = {
  QR_CODE: ['QRCode'],
  AZTEC: ['Aztec'],
  CODABAR: ['Codabar'],
  CODE_39: ['Code39Std', 'Code39Ext'],
  CODE_93: ['Code93'],
  CODE_128: ['Code128'],
  DATA_MATRIX: ['DataMatrix'],
  MAXICODE: ['MaxiCode'],
  ITF: ['ITF'],
  EAN_13: ['EAN13'],
  EAN_8: ['EAN8'],
  PDF_417: ['PDF417'],
  RSS_14: ['DataBarOmni', 'DataBarStk', 'DataBarStkOmni'],
  RSS_EXPANDED: ['DataBarExp', 'DataBarExpStk'],
  UPC_A: ['UPCA'],
  UPC_E: ['UPCE'],
  UPC_EAN_EXTENSION: [],
};

const SPEC_FORMAT_OF: Partial<Record<ReadOutputBarcodeFormat, BarcodeFormat>> = {
  QRCode: 'QR_CODE',
  QRCodeModel1: 'QR_CODE',
  QRCodeModel2: 'QR_CODE',
  MicroQRCode: 'QR_CODE',
  RMQRCode: 'QR_CODE',
  Aztec: 'AZTEC',
  AztecCode: 'AZTEC',
  AztecRune: 'AZTEC',
  Codabar: 'CODABAR',
  Code39: 'CODE_39',
  Code39Std: 'CODE_39',
  Code39Ext: 'CODE_39',
  Code93: 'CODE_93',
  Code128: 'CODE_128',
  DataMatrix: 'DATA_MATRIX',
  MaxiCode: 'MAXICODE',
  ITF: 'ITF',
  ITF14: 'ITF',
  EAN13: 'EAN_13',
  ISBN: 'EAN_13',
  EAN8: 'EAN_8',
  PDF417: 'PDF_417',
  CompactPDF417: 'PDF_417',
  MicroPDF417: 'PDF_417',
  DataBar: 'RSS_14',
  DataBarOmni: 'RSS_14',
  DataBarStk: 'RSS_14',
  DataBarStkOmni: 'RSS_14',
  DataBarExp: 'RSS_EXPANDED',
  DataBarExpStk: 'RSS_EXPANDED',
  UPCA: 'UPC_A',
  UPCE: 'UPC_E',
};

/** The spec format of a zxing-wasm result format, or null for one the spec does not name. */
export function specFormatOf(zxingFormat: ReadOutputBarcodeFormat): BarcodeFormat | null {
  return SPEC_FORMAT_OF[zxingFormat] ?? null;
}

/** Formats of the list that this decoder cannot read as a symbol of their own. */
export function unsupportedFormats(formats: readonly BarcodeFormat[] = BARCODE_FORMATS_SUPPORTED): BarcodeFormat[] {
  return formats.filter((format) => ZXING_READ_FORMATS[format].length === 0);
}

// zxing-cpp reports UPC-A with the EAN-13 leading zero and UPC-E expanded to 13 digits; the spec's
// names come from ZXing, which gives 12 and 8 digits, and so do keyboard-wedge scanners by default.
function specText(result: ReadResult, format: BarcodeFormat): string {
  if (format === 'UPC_A' && result.text.length === 13 && result.text.startsWith('0')) return result.text.slice(1);
  if (format === 'UPC_E') {
    try {
      const short = (JSON.parse(result.extra) as { UPCE?: unknown }).UPCE;
      if (typeof short === 'string') return short;
    } catch {
      // No extra data: keep the expanded text.
    }
  }
  return result.text;
}

let overrides: ZXingModuleOverrides | undefined;
// What the overrides were made from: configuring twice with the same source keeps the loaded module.
let source: string | ArrayBuffer | undefined;

/**
 * Serves the decoder's .wasm from our own origin. zxing-wasm fetches it from a CDN unless told
 * otherwise, so decoding refuses to run until this (or configureWasmBinary) has been called.
 * Lazy: the module loads on the first decode or on preloadDecoder().
 */
export function configureWasm(url: string): void {
  setOverrides(url, { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? url : prefix + path) });
}

/** The same with the .wasm bytes in hand (Node tests, a cached copy). */
export function configureWasmBinary(binary: ArrayBuffer): void {
  setOverrides(binary, { wasmBinary: binary });
}

function setOverrides(from: string | ArrayBuffer, next: ZXingModuleOverrides): void {
  if (from === source) return;
  source = from;
  overrides = next;
  prepareZXingModule({ overrides });
}

function requireConfigured(): ZXingModuleOverrides {
  if (!overrides)
    throw new Error('The barcode decoder is not configured: call configureWasm(url) first, so the .wasm is not fetched from a CDN.');
  return overrides;
}

/** Loads the module now, so the first camera frame is not slowed down by it. */
export async function preloadDecoder(): Promise<void> {
  const current = requireConfigured();
  try {
    await prepareZXingModule({ overrides: current, fireImmediately: true });
  } catch (error) {
    // zxing-wasm caches the failed instantiation; drop it so a later call can retry.
    purgeZXingModule();
    prepareZXingModule({ overrides: current });
    throw error;
  }
}

/** GS1 mod-10 check of a whole GTIN (ITF-14, EAN, UPC): the last digit checks the others. */
export function gs1CheckOk(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  const body = digits.slice(0, -1);
  const sum = [...body].reverse().reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === Number(digits.at(-1));
}

/**
 * What the decoder found, as the worker may use it: never a partial read, the most complete first.
 * - ITF has no guard against a scan line that leaves a tilted symbol through its side: such a line
 *   reads fewer digit pairs and still looks valid ("1540014128" of "15400141288763"). Warehouse ITF
 *   is ITF-14 on cartons, so only 14 digits with a right GS1 check digit are taken, as handheld
 *   scanners ship (fixed length 14).
 * - With EAN_13 and UPC_A both on, zxing-cpp reports a UPC-A label as EAN-13 with a leading zero; it
 *   is the UPC-A of the 12 digits after it (docs/scanning.md), as ZXing and wedge scanners give it.
 * - A read whose text lies inside a longer read of the same format is a partial read: dropped.
 * - The rest, longest text first.
 */
export function completeReads(found: readonly DecodedBarcode[], formats: readonly BarcodeFormat[]): DecodedBarcode[] {
  const upcA = formats.includes('UPC_A');
  const reads = found
    .map((r) =>
      upcA && r.format === 'EAN_13' && r.text.length === 13 && r.text.startsWith('0')
        ? { text: r.text.slice(1), format: 'UPC_A' as const }
        : r,
    )
    .filter((r) => r.format !== 'ITF' || (r.text.length === 14 && gs1CheckOk(r.text)));
  const whole = reads.filter(
    (r, i) =>
      !reads.some((other, j) => j !== i && other.format === r.format && other.text.length > r.text.length && other.text.includes(r.text)),
  );
  const unique = whole.filter((r, i) => whole.findIndex((other) => other.format === r.format && other.text === r.text) === i);
  return unique.sort((a, b) => b.text.length - a.text.length);
}

async function decode(input: RgbaImage | Blob, formats: readonly BarcodeFormat[], options: DecodeOptions): Promise<DecodedBarcode[]> {
  requireConfigured();
  const wanted = new Set(formats);
  const zxingFormats = formats.flatMap((format) => ZXING_READ_FORMATS[format]);
  if (zxingFormats.length === 0) return [];
  const results = await readBarcodes(input as ImageData | Blob, { ...options, formats: zxingFormats });
  const found = results.flatMap((result) => {
    const format = specFormatOf(result.format);
    // A requested symbology root can match variants the caller did not ask for.
    return format && wanted.has(format) ? [{ text: specText(result, format), format }] : [];
  });
  return completeReads(found, formats);
}

/** Decodes every barcode of the requested formats in an RGBA image (a camera frame). */
export function decodeImageData(
  image: RgbaImage,
  formats: readonly BarcodeFormat[],
  options: DecodeOptions = {},
): Promise<DecodedBarcode[]> {
  return decode(image, formats, options);
}

/**
 * Decodes a picked image file. The browser rasterises it where it can, which covers every format
 * it displays (WebP, AVIF, HEIC on Safari) and applies the photo's EXIF rotation; elsewhere, or if
 * that fails, the decoder's own PNG/JPEG/GIF/BMP reader takes the file as it is.
 */
export async function decodeImageFile(
  file: Blob,
  formats: readonly BarcodeFormat[],
  options: DecodeOptions = {},
): Promise<DecodedBarcode[]> {
  const image = await rasterize(file).catch(() => null);
  return decode(image ?? file, formats, options);
}

/** A file scan's outcome: the best read, or the format of a barcode it saw that is switched off. */
export type FileScan = { found: DecodedBarcode } | { switchedOff: BarcodeFormat } | { none: true };

/**
 * Decodes a picked image file with the enabled formats; when that finds nothing, once more with every
 * format, so the worker learns that the label's format is switched off instead of "no barcode".
 * The second read is never published.
 */
export async function scanImageFile(file: Blob, formats: readonly BarcodeFormat[]): Promise<FileScan> {
  const image = (await rasterize(file).catch(() => null)) ?? file;
  const [found] = await decode(image, formats, { tryHarder: true, tryRotate: true, maxNumberOfSymbols: 255 });
  if (found) return { found };
  const others = BARCODE_FORMATS_SUPPORTED.filter((format) => !formats.includes(format));
  const [seen] = others.length > 0 ? await decode(image, others, { tryHarder: true, tryRotate: true, maxNumberOfSymbols: 255 }) : [];
  return seen ? { switchedOff: seen.format } : { none: true };
}

async function rasterize(file: Blob): Promise<RgbaImage | null> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return null;
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
    if (!context) return null;
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}
