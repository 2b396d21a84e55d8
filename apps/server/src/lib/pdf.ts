// PDF documents the floor prints: tables (count sheets, packing lists) and pages of label images.
// One writer for every area (pdf-lib, pure JavaScript, the standard Helvetica fonts), so a count sheet
// and a packing list look alike and nobody writes page breaks twice.
import { toBuffer } from 'bwip-js/node';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';

const POINTS_PER_INCH = 72;
const A4: [number, number] = [595.28, 841.89];
const MARGIN = 36;
const LINE = 14;

export interface PdfColumn {
  header: string;
  /** Share of the page width; the shares of a table are scaled to fill it. */
  width: number;
  align?: 'left' | 'right';
}

export interface PdfTable {
  title: string;
  /** Lines under the title (warehouse, order, dates…). */
  heading?: string[];
  columns: PdfColumn[];
  rows: string[][];
  /** Lines after the table (totals, signature lines). */
  footer?: string[];
  /** A Code 128 barcode of this text (its text under it) at the top right of the first page: the document's own code, for a scanner. */
  barcode?: string;
}

/** Pixels per module of the barcode image; drawn at 1 pt a module (0.35 mm, well inside what hand scanners read). */
const BARCODE_SCALE = 3;
const BARCODE_MODULE_PT = 1;

/** A Code 128 barcode as a PNG (bwip-js, the renderer the web app's badges use), the text under the bars. */
const barcodePng = (text: string): Promise<Buffer> =>
  toBuffer({
    bcid: 'code128',
    text,
    scale: BARCODE_SCALE,
    height: 12,
    includetext: true,
    textxalign: 'center',
    paddingwidth: 10,
    paddingheight: 2,
    backgroundcolor: 'FFFFFF',
  });

/**
 * The standard fonts speak WinAnsi only: Latin-1 (Spanish's á ñ ¿ ¡ included) and the typographic
 * marks of its 0x80-0x9f row (€ … – — ‘ ’ “ ” •, which a translation may use). Anything else becomes
 * "?" rather than an exception, so a description in another script never stops a document.
 */
export const pdfText = (value: string): string =>
  // eslint-disable-next-line no-control-regex
  value.replace(/[\u0000-\u001f]/g, ' ').replace(/[^\u0020-\u007e\u00a0-\u00ff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/g, '?');

const fit = (font: PDFFont, size: number, text: string, width: number): string => {
  let out = pdfText(text);
  if (font.widthOfTextAtSize(out, size) <= width) return out;
  while (out.length > 1 && font.widthOfTextAtSize(`${out}…`, size) > width) out = out.slice(0, -1);
  return `${out}…`;
};

/** A table document on A4 portrait, the header row repeated on every page, pages numbered. */
export async function tablePdf(table: PdfTable): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(pdfText(table.title));
  doc.setProducer('Floorhand');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const usable = A4[0] - 2 * MARGIN;
  const share = table.columns.reduce((sum, c) => sum + c.width, 0) || 1;
  const widths = table.columns.map((c) => (c.width / share) * usable);
  const barcode: PDFImage | undefined = table.barcode ? await doc.embedPng(await barcodePng(table.barcode)) : undefined;
  const barcodeSize = barcode
    ? { width: (barcode.width / BARCODE_SCALE) * BARCODE_MODULE_PT, height: (barcode.height / BARCODE_SCALE) * BARCODE_MODULE_PT }
    : undefined;
  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;

  const row = (cells: string[], f: PDFFont) => {
    let x = MARGIN;
    table.columns.forEach((column, i) => {
      const text = fit(f, 9, cells[i] ?? '', widths[i]! - 4);
      const tx = column.align === 'right' ? x + widths[i]! - 2 - f.widthOfTextAtSize(text, 9) : x + 2;
      page.drawText(text, { x: tx, y, size: 9, font: f });
      x += widths[i]!;
    });
    y -= LINE;
  };
  const newPage = (first: boolean) => {
    page = doc.addPage(A4);
    pages.push(page);
    y = A4[1] - MARGIN - 12;
    // Beside the barcode (first page, top right) the title and heading are narrower, until below it.
    const barcodeBottom = first && barcode && barcodeSize ? A4[1] - MARGIN - barcodeSize.height : A4[1];
    if (first && barcode && barcodeSize)
      page.drawImage(barcode, { x: A4[0] - MARGIN - barcodeSize.width, y: barcodeBottom, ...barcodeSize });
    const room = (atY: number) => (atY > barcodeBottom - 4 && barcodeSize ? usable - barcodeSize.width - 12 : usable);
    page.drawText(fit(bold, first ? 14 : 10, table.title, room(y)), { x: MARGIN, y, size: first ? 14 : 10, font: bold });
    y -= first ? 20 : LINE;
    if (first) {
      for (const line of table.heading ?? []) {
        page.drawText(fit(font, 10, line, room(y)), { x: MARGIN, y, size: 10, font });
        y -= LINE;
      }
      y = Math.min(y, barcodeBottom - LINE);
      y -= 4;
    }
    row(
      table.columns.map((c) => c.header),
      bold,
    );
    page.drawLine({
      start: { x: MARGIN, y: y + LINE - 3 },
      end: { x: A4[0] - MARGIN, y: y + LINE - 3 },
      thickness: 0.5,
      color: rgb(0.4, 0.4, 0.4),
    });
  };

  newPage(true);
  for (const cells of table.rows) {
    if (y < MARGIN + LINE) newPage(false);
    row(cells, font);
  }
  for (const line of table.footer ?? []) {
    if (y < MARGIN + LINE) newPage(false);
    y -= 4;
    page.drawText(fit(font, 10, line, usable), { x: MARGIN, y, size: 10, font });
    y -= LINE;
  }
  pages.forEach((p, i) => {
    const text = `${i + 1} / ${pages.length}`;
    p.drawText(text, { x: A4[0] - MARGIN - font.widthOfTextAtSize(text, 8), y: MARGIN / 2, size: 8, font });
  });
  return doc.save();
}

export interface PdfImagePage {
  png: Uint8Array;
  /** The page size, e.g. the label's size in inches. */
  widthIn: number;
  heightIn: number;
}

/** One page per PNG, each page the size of its label, the image filling it. */
export async function imagesPdf(title: string, images: PdfImagePage[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(pdfText(title));
  doc.setProducer('Floorhand');
  for (const image of images) {
    const embedded = await doc.embedPng(image.png);
    const w = image.widthIn * POINTS_PER_INCH;
    const h = image.heightIn * POINTS_PER_INCH;
    doc.addPage([w, h]).drawImage(embedded, { x: 0, y: 0, width: w, height: h });
  }
  return doc.save();
}
