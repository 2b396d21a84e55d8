import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fillTemplate,
  LABEL_FIELDS,
  LABEL_WORDS,
  labelFormats,
  LABELS_PER_JOB_MAX,
  restOfJob,
  templateProblems,
  zplCommandProblems,
  zplValue,
} from './labels.ts';
import { printerProblemInWords } from './printer-words.ts';

// Field data never becomes a printer command, and templates use label-formatting commands only
// (docs/labels.md, "What a template may use").

// eslint-disable-next-line no-control-regex -- control characters are what the test looks for
const C0_OR_DEL = /[\u0000-\u001F\u007F]/;

/** A stock template like the defaults, with a ^FH field (default indicator) and one with its own indicator. */
const TEMPLATE = [
  '^XA^CI28',
  '^FO30,25^A0N,36,36^FD{{partNumber}}^FS',
  '^FO30,68^A0N,24,24^FB570,2,2,L^FD{{description}}^FS',
  '^FO30,130^BY2,3,90^BCN,90,Y,N,N^FD{{stockId}}^FS',
  '^FO30,262^A0N,26,26^FH^FDQty {{qty}} {{uom}} _41^FS',
  '^FO30,302^A0N,22,22^FH\\^FDLot {{lot}}^FS',
  '^FO630,25^BQN,2,5^FDQA,{{stockId}}^FS',
  '^XZ',
].join('\n');

/** The data of every ^FD … ^FS of a ZPL text. */
const fieldData = (zpl: string) => [...zpl.matchAll(/\^FD([\s\S]*?)\^FS/g)].map((m) => m[1]!);
/** What a printer makes of ^FH field data: each indicator and two hex digits is that byte. */
function hexDecoded(data: string, indicator: string): string {
  let out = '';
  for (let i = 0; i < data.length; i++) {
    const hex = data.slice(i + 1, i + 3);
    if (data[i] === indicator && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out += String.fromCharCode(parseInt(hex, 16));
      i += 2;
    } else out += data[i];
  }
  return out;
}
/** The commands of a ZPL text (prefix and two letters), to compare a filled label with its template. */
const commands = (zpl: string) => zpl.match(/[\^~][A-Za-z0-9@]{0,2}/g) ?? [];

describe('field data', () => {
  it('drops every C0 control character and DEL; tabs and line breaks become spaces; ^ and ~ too', () => {
    expect(zplValue('Bolt\u001E^XA\u0010~JR\tM8\r\nzinc\u007F\u0000')).toBe('Bolt XA JR M8  zinc');
    expect(zplValue('a\u001Eb\u0010c')).toBe('abc');
  });

  it('writes the ^FH indicator of data as its own hex escape, so data never makes an escape', () => {
    const filled = fillTemplate(
      TEMPLATE,
      new Map([
        ['qty', '_1E_5E'],
        ['lot', '\\7E_1E'],
        ['description', '_1E'],
      ]),
    );
    expect(filled).toContain('^FDQty _5F1E_5F5E  _41^FS');
    expect(filled).toContain('^FDLot \\5C7E_1E^FS');
    // Outside a ^FH field an underscore is only an underscore.
    expect(filled).toContain('^FD_1E^FS');
  });

  it('fuzz: whatever the data, the filled label has the commands of its template and no prefix or control character in any field', () => {
    const nasty = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc
        .array(
          fc.constantFrom(
            '^',
            '~',
            '_',
            '\\',
            '\u0010',
            '\u001E',
            '\u0000',
            '\u007F',
            '\t',
            '\r\n',
            '{{qty}}',
            '^XZ~JR^XA',
            '_1E',
            '_5E',
            'x',
          ),
          { maxLength: 20 },
        )
        .map((a) => a.join('')),
    );
    const fields = [...LABEL_FIELDS.get('stock')!.keys()];
    fc.assert(
      fc.property(fc.array(nasty, { minLength: fields.length, maxLength: fields.length }), (values) => {
        const filled = fillTemplate(TEMPLATE, new Map(fields.map((f, i) => [f, values[i]!])));
        expect(commands(filled)).toEqual(commands(TEMPLATE));
        for (const data of fieldData(filled)) {
          expect(data).not.toMatch(/[\^~]/);
          expect(data).not.toMatch(C0_OR_DEL);
        }
        // No hex escape of a ^FH field writes a control character or a prefix.
        for (const m of filled.matchAll(/\^FH([^^]?)\^FD([^^]*)\^FS/g))
          // eslint-disable-next-line no-control-regex -- control characters are what the test looks for
          expect(hexDecoded(m[2]!, m[1] || '_')).not.toMatch(/[\u0000-\u001F\u007F^~]/);
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});

describe('template commands', () => {
  it.each([
    ['~WC', 'it changes the printer, not the label'],
    ['^JUF', 'it changes the printer, not the label'],
    ['^ND', 'it changes the printer, not the label'],
    ['^IDR', "it reads or writes the printer's storage, not the label"],
    ['~JR', 'it changes the printer, not the label'],
    ['^DF', "it reads or writes the printer's storage, not the label"],
    ['^CC', "it changes ZPL's prefixes or delimiter, after which data could become commands"],
    ['^A@', "it names a font file on the printer's storage; use a resident font (^A0, ^AA … ^AZ)"],
    ['^ZZ', 'it is not one of the label-formatting commands labels may use (docs/labels.md)'],
  ])('refuses %s and names it', (cmd, why) => {
    const name = cmd.slice(0, 3);
    const zpl = `^XA^FO10,10^A0N,30,30^FD{{stockId}}^FS${cmd}${cmd === '^A@' ? 'N,30,30,E:X.FNT' : ''}^XZ`;
    expect(templateProblems('stock', zpl)).toContain(`The template uses ${name}, which labels may not use (${why})`);
  });

  it('refuses lower-case commands the same way, ^CI with remapping, control characters and ^FH escapes of controls or prefixes', () => {
    expect(zplCommandProblems('^XA~wc^XZ')).toEqual([
      'The template uses ~WC, which labels may not use (it changes the printer, not the label)',
    ]);
    expect(zplCommandProblems('^XA^CI0,36,94^XZ')[0]).toMatch(/^The template uses \^CI with character remapping/);
    expect(zplCommandProblems('^XA^FO1,1^FD\u001EA^FS^XZ')[0]).toMatch(/control character 0x1E/);
    expect(zplCommandProblems('^XA^FO1,1^FH^FDa_1Eb^FS^XZ')).toEqual([
      "The template's ^FH field writes _1E (a control character), which labels may not use",
    ]);
    expect(zplCommandProblems('^XA^FO1,1^FH^FDa_5e^FS^XZ')).toEqual([
      "The template's ^FH field writes _5e (a ZPL prefix), which labels may not use",
    ]);
    expect(zplCommandProblems('^XA^FO1,1^FH#^FDa#10^FS^XZ')).toHaveLength(1);
    // _1E outside a ^FH field is text, and a ^FH field's printable escapes are fine.
    expect(zplCommandProblems('^XA^FO1,1^FDa_1E^FS^FO1,1^FH^FD_41_C3_A9^FS^XZ')).toEqual([]);
  });

  it('accepts the label-formatting commands of the allow-list', () => {
    const zpl =
      '^XA^CI28^PW812^LL406^LH0,0^LS0^LT0^LRN^POI^PMN^PR4^CF0,30^FWN\n^FO10,10^A0N,30,30^FB500,2,0,L^FD{{description}}^FS^FT10,90^AAN^FDx^FS^FX a comment\n^FO10,100^BY2^BCN,60,Y,N,N^FD{{stockId}}^FS^FO10,200^BQN,2,5^FDQA,{{stockId}}^FS^FO300,10^GB100,100,3^FS^FO300,10^GC50,2^FS^FO1,1^FR^GD10,10^FS^FO1,1^GE10,10^FS^PQ1^XZ';
    expect(templateProblems('stock', zpl)).toEqual([]);
  });
});

describe('the rest of an interrupted job (issue 26 item 8)', () => {
  it('from the next whole label with the same copies, or each remaining label once', () => {
    expect(restOfJob('^XAa^XZ^XAb^XZ', 3, 3)).toEqual({ zpl: '^XAb^XZ', copies: 3, labels: 1 });
    expect(restOfJob('^XAa^XZ', 20, 5)).toEqual({ zpl: '^XAa^XZ'.repeat(15), copies: 1, labels: 15 });
    expect(restOfJob('^XAa^XZ^XAb^XZ', 3, 4)).toEqual({ zpl: '^XAb^XZ^XAb^XZ', copies: 1, labels: 2 });
    // More than one job prints (2,000 labels): refused, reprint in parts.
    expect(restOfJob('^XAa^XZ^XAb^XZ^XAc^XZ', 999, 1)).toBeUndefined();
  });

  it('is always exactly the labels not printed, in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 7 }), fc.nat(), (formats, copies, seed) => {
        const zpl = Array.from({ length: formats }, (_, i) => `^XA${i}^XZ`).join('');
        const printed = seed % (formats * copies);
        const all = labelFormats(zpl).flatMap((f) => Array<string>(copies).fill(f));
        const rest = restOfJob(zpl, copies, printed)!;
        expect(rest.labels * rest.copies).toBe(formats * copies - printed);
        expect(labelFormats(rest.zpl).flatMap((f) => Array<string>(rest.copies).fill(f))).toEqual(all.slice(printed));
        expect(rest.labels).toBeLessThanOrEqual(LABELS_PER_JOB_MAX);
      }),
    );
  });
});

describe('printer problems in words (issue 26 item 10)', () => {
  it.each([
    ['printer unreachable: connect ECONNREFUSED 10.0.0.5:9100', 'printer not answering at 10.0.0.5:9100'],
    ['connect ETIMEDOUT 10.0.0.5:9100', 'printer not answering (no reply in time) at 10.0.0.5:9100'],
    ['connect EHOSTUNREACH 10.0.0.5:9100', 'printer not reachable on the network at 10.0.0.5:9100'],
    ['getaddrinfo ENOTFOUND zebra-dock', 'printer address not found at zebra-dock'],
    [
      'sending failed part way (read ECONNRESET); the label may have printed',
      'sending failed part way (the printer broke the connection); the label may have printed',
    ],
    ['paper out', 'paper out'],
    ['ESOMETHINGELSE 1', 'ESOMETHINGELSE 1'],
  ])('%s → %s', (raw, words) => expect(printerProblemInWords(raw)).toBe(words));
});

describe("a label's own words (issue 29: travellers and every label in the printer's language)", () => {
  const stock = '^XA^CI28^FO10,10^A0N,30,30^FD{{t:Qty}} {{qty}}  {{ t: Picked by }} x^FS^XZ';
  const data = new Map([['qty', '2']]);

  it('are written by the translator given, English without one', () => {
    expect(fillTemplate(stock, data)).toBe('^XA^CI28^FO10,10^A0N,30,30^FDQty 2  Picked by x^FS^XZ');
    const es = new Map([
      ['Qty', 'Cant.'],
      ['Picked by', 'Preparado por'],
    ]);
    expect(fillTemplate(stock, data, (w) => es.get(w) ?? w)).toBe('^XA^CI28^FO10,10^A0N,30,30^FDCant. 2  Preparado por x^FS^XZ');
  });

  it('are cleaned like data: a translation can never become a command', () => {
    const filled = fillTemplate(stock, data, () => '^XZ~JA\n^XA');
    expect(filled.match(/\^XZ/g)).toHaveLength(1);
    expect(filled).not.toContain('~');
    expect(filled).not.toMatch(C0_OR_DEL);
  });

  it('must be words of LABEL_WORDS; an unknown one is refused with the list', () => {
    expect(templateProblems('stock', stock)).toEqual([]);
    const [problem, ...rest] = templateProblems('stock', '^XA^FO1,1^FD{{t:Bogus}} {{t:}}^FS^XZ');
    expect(rest).toEqual([]);
    expect(problem).toMatch(
      /^Unknown label word \{\{t:Bogus\}\}, \{\{t:\}\}; the words that print in the language of whoever prints are Qty, Lot,/,
    );
    expect([...LABEL_WORDS].every((w) => w.trim() === w && !/[{}^~]/.test(w))).toBe(true);
  });
});
