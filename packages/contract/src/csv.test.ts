import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CsvError, CsvParser, csvField, parseCsv, restoreFormula, toCsv } from './csv.ts';

const parse = (text: string) => [...parseCsv(text)];

describe('parseCsv (RFC 4180)', () => {
  it('reads fields and records with CRLF, LF or CR line breaks', () => {
    expect(parse('a,b\r\nc,d\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parse('a,b\nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parse('a,b\rc,d\r')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(parse('"a,1","say ""hi""","two\r\nlines"\r\nx,"",y')).toEqual([
      ['a,1', 'say "hi"', 'two\r\nlines'],
      ['x', '', 'y'],
    ]);
  });

  it('keeps empty fields, a trailing empty field and blank lines', () => {
    expect(parse(',a,\r\n\r\nb')).toEqual([['', 'a', ''], [''], ['b']]);
    expect(parse('')).toEqual([]);
    expect(parse('\r\n')).toEqual([['']]);
  });

  it('drops a byte-order mark and keeps spaces as data', () => {
    expect(parse('\ufeff a , b ')).toEqual([[' a ', ' b ']]);
  });

  it('keeps a stray quote inside an unquoted field as text', () => {
    expect(parse('12" pipe,x')).toEqual([['12" pipe', 'x']]);
  });

  it('refuses an unclosed quote and text after a closing quote, naming the record', () => {
    expect(() => parse('a\r\n"open')).toThrow(new CsvError('a quoted field is not closed', 2));
    expect(() => parse('a\r\nb\r\n"x"y,z')).toThrow(CsvError);
    try {
      parse('a\r\nb\r\n"x"y,z');
    } catch (e) {
      expect((e as CsvError).row).toBe(3);
    }
  });

  it('gives the same records whatever the chunk boundaries', () => {
    const text = 'h1,h2\r\n"a ""q"", b","x\r\ny"\r\n,\r\nlast,"end"';
    const whole = parse(text);
    for (let size = 1; size <= text.length; size++) expect([...parseCsv(text, size)]).toEqual(whole);
  });

  it('reads 100,000 records quickly', () => {
    const text = toCsv(Array.from({ length: 100_000 }, (_, i) => [`S${i}`, 'P-1', 'W1', 'A-01', i % 7, 'lot, "x"']));
    const started = performance.now();
    let count = 0;
    for (const row of parseCsv(text)) count += row.length === 6 ? 1 : 0;
    expect(count).toBe(100_000);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('toCsv', () => {
  it('quotes only where needed and ends each record with CRLF', () => {
    expect(
      toCsv([
        ['a', 1, true, null, undefined],
        ['x,y', 'say "hi"', 'two\nlines', ' pad'],
      ]),
    ).toBe('a,1,true,,\r\n"x,y","say ""hi""","two\nlines"," pad"\r\n');
    expect(csvField('plain')).toBe('plain');
  });

  it("round-trips any table of strings, neutralised formulas included, through the import's restore", () => {
    const cell = fc.string({
      unit: fc.constantFrom('a', 'b', ',', '"', '\r', '\n', ' ', 'é', '\u2028', '=', '+', '-', '@', "'", '\t', '1'),
    });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 20 }), (rows) => {
        // A record of one empty field is written as an empty line, which reads back as [''] too.
        expect([...parseCsv(toCsv(rows), 7)].map((r) => r.map(restoreFormula))).toEqual(rows);
      }),
    );
  });

  it('neutralises cells a spreadsheet would run as formulas, but not plain numbers', () => {
    expect(csvField('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvField('+1+cmd')).toBe("'+1+cmd");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('-5')).toBe('-5');
    expect(csvField('+1.25')).toBe('+1.25');
    expect(csvField(-5)).toBe('-5');
    expect(csvField("'=x")).toBe("''=x");
    expect(restoreFormula("''=x")).toBe("'=x");
    expect(restoreFormula("'plain")).toBe("'plain");
  });

  it('is read back by a fresh parser fed one character at a time', () => {
    const parser = new CsvParser();
    const records = [...'x,"a\r\nb"\r\n'].flatMap((ch) => parser.push(ch));
    expect([...records, ...parser.end()]).toEqual([['x', 'a\r\nb']]);
  });
});
