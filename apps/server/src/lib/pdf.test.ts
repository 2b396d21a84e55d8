import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { imagesPdf, pdfText, tablePdf } from './pdf.js';
import { pdfTexts } from '../test/pdf-text.ts';

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

  it('draws Spanish and the typographic marks a translation may use with the standard fonts', async () => {
    const spanish = '¿Cuántas? ¡Añade él, ó, ú, ü! “Hoja” – de recuento… ‘sí’ — • €';
    expect(pdfText(spanish)).toBe(spanish);
    const bytes = await tablePdf({
      title: 'Hoja de recuento CS-1',
      heading: [spanish],
      columns: [
        { header: 'Ubicación', width: 1 },
        { header: 'Descripción', width: 1 },
      ],
      rows: [['A-01', 'Tornillo cañón']],
      footer: ['Contado por ____ (¡firma!)'],
    });
    const texts = await pdfTexts(bytes);
    // WinAnsi: the curly quotes, dashes, ellipsis and bullet are single bytes outside Latin-1, so only the Latin-1 texts are compared.
    expect(texts).toEqual(
      expect.arrayContaining(['Hoja de recuento CS-1', 'Ubicación', 'Descripción', 'Tornillo cañón', 'Contado por ____ (¡firma!)']),
    );
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
