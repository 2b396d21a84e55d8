// Reading a PDF the server wrote back in tests: what its pages say.
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';

/** Every text shown on the PDF's pages, in drawing order: the content streams inflated, their hex strings decoded. */
export async function pdfTexts(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const out: string[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const filter = object.dict.get(PDFName.of('Filter'));
    const content = Buffer.from(filter === PDFName.of('FlateDecode') ? inflateSync(object.contents) : object.contents).toString('latin1');
    for (const m of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\(((?:[^()\\]|\\.)*)\)\s*Tj/g))
      out.push(m[1] !== undefined ? Buffer.from(m[1], 'hex').toString('latin1') : m[2]!);
  }
  return out;
}
