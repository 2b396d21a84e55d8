import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { imagesPdf, pdfText, tablePdf } from './pdf.js';

describe('pdf', () => {
  it('writes a table over several pages, the header on each, text it cannot encode replaced', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => [`LOC-${i}`, `Item ${i} 日本`, String(i)]);
    const bytes = await tablePdf({
      title: 'Count sheet CS-1',
      heading: ['Warehouse WH1'],
      columns: [
        { header: 'Location', width: 2 },
        { header: 'Item', width: 5 },
        { header: 'Qty', width: 1, align: 'right' },
      ],
      rows,
      footer: ['Counted by ____________'],
    });
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBeGreaterThan(1);
    expect(doc.getTitle()).toBe('Count sheet CS-1');
  });

  it('keeps Latin-1 and the euro, and turns other characters and control characters into safe ones', () => {
    expect(pdfText('Größe 5 €')).toBe('Größe 5 €');
    expect(pdfText('a\u0000b 日')).toBe('a b ?');
  });

  it('puts each image on a page of its own size', async () => {
    // A 1x1 transparent PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    const doc = await PDFDocument.load(
      await imagesPdf('labels', [
        { png, widthIn: 4, heightIn: 2 },
        { png, widthIn: 2, heightIn: 1 },
      ]),
    );
    expect(doc.getPages().map((p) => p.getSize())).toEqual([
      { width: 288, height: 144 },
      { width: 144, height: 72 },
    ]);
  });
});
