import { describe, expect, it } from 'vitest';
import { GENERAL_ID_MESSAGE, NAMED_PATTERNS, isNamedPattern, type NamedPatternName } from './patterns.ts';

const cases: Record<NamedPatternName, { pass: string[]; fail: string[] }> = {
  generalId: {
    pass: ['a', '7', 'app_settings', 'A_b_9', 'x'.repeat(35), 'a__b'],
    fail: ['', '_a', 'a_', 'a-b', 'a b', 'é', 'a.b', ' a', 'a\n'],
  },
  date: {
    pass: ['1900-01-01', '2099-12-31', '2024-02-29', '2000-02-29', '2023-04-30'],
    fail: [
      '1899-12-31',
      '2100-01-01',
      '2023-02-29',
      '1900-02-29',
      '2023-04-31',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '2024-1-01',
      '2024/01/01',
      ' 2024-01-01',
      '2024-01-01 12:00:00',
    ],
  },
  time: {
    pass: ['01:00:00', '12:34:56', '23:59:59', '24:00:00', '24:59:59'],
    fail: ['00:00:00', '00:30:00', '25:00:00', '12:60:00', '12:00:60', '12:00', '1:00:00', '12:00:00.000'],
  },
  fulltime: {
    pass: ['2024-01-31 24:00:00', '1900-01-01 01:00:00'],
    fail: ['2024-01-31T12:00:00', '2024-01-31 00:00:00', '2024-02-30 12:00:00', '2024-01-31', '2024-01-31  12:00:00'],
  },
  timestamp: {
    pass: ['2024-01-31 12:00:00'],
    fail: ['2024-01-31T12:00:00Z', '1899-12-31 12:00:00'],
  },
  email: {
    pass: ['a@b.co', 'first.last+tag@mail.example.com', "o'brien@x-y.org", 'A_B@EXAMPLE.COM'],
    fail: ['', 'a', 'a@b', '@b.co', 'a@.co', 'a@b.', 'a b@c.co', 'a@b..co', 'a@-b.co', 'ü@b.co', 'a@b.co '],
  },
  phoneUs: {
    pass: [
      '212-555-0123',
      '(212) 555-0123',
      '212.555.0123',
      '2125550123',
      '+1 212 555 0123',
      '1-212-555-0123',
      '212-555-0123 x12',
      '212-555-0123 ext. 4',
      '212-555-0123 Extension 1234',
    ],
    fail: ['112-555-0123', '212-155-0123', '212-555-012', '555-0123', '+44 20 7946 0958', '212-555-0123 x', '212-555-0123x1234567'],
  },
  phoneIntl: {
    pass: ['+44 20 7946 0958', '+4420794609', '+1-212-555-0123', '+81 3 1234 5678 ext 22', '+123456789012345'],
    fail: ['44 20 7946 0958', '+0 20 7946 0958', '+12345', '+1234567890123456', '+44  20 7946 0958', '+44 (20) 7946 0958'],
  },
  hexColor: {
    pass: ['#fff', '#FFF', '#1a2B3c'],
    fail: ['fff', '#ffff', '#12345', '#1234567', '#ggg', '#fff '],
  },
  rgb: {
    pass: ['rgb(0,0,0)', 'rgb(255, 255, 255)', 'rgb( 12 , 3 , 200 )'],
    fail: ['rgb(256,0,0)', 'rgb(0,0)', 'rgb(01,0,0)', 'rgba(0,0,0,1)', 'rgb(-1,0,0)', 'RGB(0,0,0)'],
  },
  rgba: {
    pass: ['rgba(0,0,0,0)', 'rgba(255, 255, 255, 1)', 'rgba(1,2,3,0.5)', 'rgba(1,2,3,.25)', 'rgba(1,2,3,1.0)'],
    fail: ['rgba(0,0,0)', 'rgba(0,0,0,1.5)', 'rgba(0,0,0,2)', 'rgb(0,0,0,1)', 'rgba(0,0,0,-0.1)'],
  },
};

describe('NAMED_PATTERNS', () => {
  it('has exactly the named patterns of the spec', () => {
    expect(Object.keys(NAMED_PATTERNS).sort()).toEqual(Object.keys(cases).sort());
  });

  for (const [name, { pass, fail }] of Object.entries(cases) as [NamedPatternName, (typeof cases)[NamedPatternName]][]) {
    it.each(pass)(`${name} accepts %j`, (value) => expect(NAMED_PATTERNS[name].test(value)).toBe(true));
    it.each(fail)(`${name} rejects %j`, (value) => expect(NAMED_PATTERNS[name].test(value)).toBe(false));
  }

  it('keeps the general id message of the spec word for word', () => {
    expect(NAMED_PATTERNS.generalId.message).toBe(
      'must start with a letter or digit, may only contain letters (upper or lowercase), digits (0-9), underscores (_), and must end in a letter or digit.',
    );
    expect(GENERAL_ID_MESSAGE).toBe(NAMED_PATTERNS.generalId.message);
  });

  it('names its pattern in the date, time and timestamp messages', () => {
    expect(NAMED_PATTERNS.date.message).toBe("must match pattern 'YYYY-MM-DD'");
    expect(NAMED_PATTERNS.time.message).toBe("must match pattern 'hh:mm:ss'");
    expect(NAMED_PATTERNS.timestamp.message).toBe("must match pattern 'YYYY-MM-DD hh:mm:ss'");
    expect(NAMED_PATTERNS.fulltime).toBe(NAMED_PATTERNS.timestamp);
  });

  it('rejects 100k-character near misses in linear time', () => {
    const long = 'a'.repeat(100_000);
    const nearMisses = [
      long + '_',
      long + '!',
      `${long}@${long}`,
      `${long}@b.${'c'.repeat(100_000)}-`,
      '1'.repeat(100_000),
      `+1${' 1'.repeat(50_000)}`,
      `rgb(${' '.repeat(100_000)}`,
    ];
    const started = performance.now();
    for (const pattern of Object.values(NAMED_PATTERNS)) for (const text of nearMisses) pattern.test(text);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('recognises only its own names, not inherited properties', () => {
    expect(isNamedPattern('email')).toBe(true);
    expect(isNamedPattern('toString')).toBe(false);
    expect(isNamedPattern('^[a-z]+$')).toBe(false);
  });
});
