import { afterEach, describe, expect, it, vi } from 'vitest';
import { WEDGE_KEY_GAP_MS } from '@floorhand/contract/constants';
import { attachKeyboardWedge, createWedgeJoiner, WEDGE_MIN_LENGTH, WEDGE_QUIET_MS, type WedgeKeyEvent } from './keyboard-wedge.ts';
import { createScanBus, type Scan } from './scan-bus.ts';

type Key = string | (Partial<WedgeKeyEvent> & { key: string });

/** Feeds keys `gap` ms apart (or at an explicit timeStamp) and collects the completed codes. */
function typeKeys(keys: Key[], gap: number, start = 1000) {
  const joiner = createWedgeJoiner();
  const codes: string[] = [];
  let t = start;
  for (const k of keys) {
    const event = typeof k === 'string' ? { key: k } : k;
    t = event.timeStamp ?? t + gap;
    const code = joiner.feed({ targetIsInput: false, ...event, timeStamp: t });
    if (code !== null) codes.push(code);
  }
  return codes;
}
const chars = (text: string) => [...text];

describe('wedge joiner', () => {
  it('uses the spec gap of 40 ms and a minimum length of 3', () => {
    expect(WEDGE_KEY_GAP_MS).toBe(40);
    expect(WEDGE_MIN_LENGTH).toBe(3);
  });

  it('joins keys 39 ms apart and ends the code on Enter', () => {
    expect(typeKeys([...chars('LOC-A12'), 'Enter'], 39)).toEqual(['LOC-A12']);
  });

  it('joins keys exactly 40 ms apart (within the gap)', () => {
    expect(typeKeys([...chars('ABC'), 'Enter'], 40)).toEqual(['ABC']);
  });

  it('splits at 41 ms: the chars before the gap are discarded, and so is the tail after them', () => {
    const keys: Key[] = [
      { key: 'X', timeStamp: 0 },
      { key: 'Y', timeStamp: 10 },
      { key: 'A', timeStamp: 51 },
      { key: 'B', timeStamp: 60 },
      { key: 'C', timeStamp: 70 },
      { key: 'Enter', timeStamp: 80 },
    ];
    expect(typeKeys(keys, 0)).toEqual([]);
    expect(typeKeys([...chars('ABCD'), 'Enter'], 41)).toEqual([]);
  });

  it('never publishes the tail of a scan whose first keys came too slowly (issue 10 item 9)', () => {
    // `A-01-3` with a 120 ms stall after `A-0` (a page or a device waking up): `1-3` alone is a wrong lookup.
    const keys: Key[] = [
      { key: 'A', timeStamp: 0 },
      { key: '-', timeStamp: 8 },
      { key: '0', timeStamp: 16 },
      { key: '1', timeStamp: 136 },
      { key: '-', timeStamp: 144 },
      { key: '3', timeStamp: 152 },
      { key: 'Enter', timeStamp: 160 },
    ];
    expect(typeKeys(keys, 0)).toEqual([]);
    // Nor a tail broken once more.
    expect(
      typeKeys(
        [
          { key: 'S', timeStamp: 0 },
          ...['0', '0', '0'].map((key, i) => ({ key, timeStamp: 100 + i * 5 })),
          ...['0', '7'].map((key, i) => ({ key, timeStamp: 300 + i * 5 })),
          { key: 'Enter', timeStamp: 315 },
        ],
        0,
      ),
    ).toEqual([]);
  });

  it('reads the next whole scan: after a terminator, or after a quiet second', () => {
    const broken: Key[] = [
      { key: 'A', timeStamp: 0 },
      { key: '-', timeStamp: 8 },
      { key: '0', timeStamp: 130 },
      { key: 'Enter', timeStamp: 138 },
    ];
    // Scanned again at once after the broken read's Enter.
    expect(typeKeys([...broken, ...[...chars('A-01-3'), 'Enter'].map((key, i) => ({ key, timeStamp: 300 + i * 8 }))], 0)).toEqual([
      'A-01-3',
    ]);
    // Keys cut off without a terminator, then a scan after WEDGE_QUIET_MS of quiet.
    const cut: Key[] = [
      { key: 'Q', timeStamp: 0 },
      { key: 'R', timeStamp: 8 },
    ];
    expect(typeKeys([...cut, ...[...chars('B-02'), 'Enter'].map((key, i) => ({ key, timeStamp: 8 + WEDGE_QUIET_MS + i * 8 }))], 0)).toEqual(
      ['B-02'],
    );
    expect(
      typeKeys([...cut, ...[...chars('B-02'), 'Enter'].map((key, i) => ({ key, timeStamp: 8 + WEDGE_QUIET_MS - 100 + i * 8 }))], 0),
    ).toEqual([]);
  });

  it('ends the code on Tab', () => {
    expect(typeKeys([...chars('12345'), 'Tab'], 5)).toEqual(['12345']);
  });

  it('does not take a slow terminator after a fast burst', () => {
    expect(typeKeys([...chars('ABC'), { key: 'Enter', timeStamp: 1000 + 3 * 5 + 41 }], 5)).toEqual([]);
  });

  it('reads two scans in a row', () => {
    expect(typeKeys([...chars('AAA1'), 'Enter', ...chars('BBB2'), 'Tab'], 8)).toEqual(['AAA1', 'BBB2']);
  });

  it('ignores codes shorter than the minimum', () => {
    expect(typeKeys(['A', 'B', 'Enter'], 5)).toEqual([]);
  });

  it('ignores everything while the target is an input, and starts afresh after', () => {
    const keys: Key[] = [
      ...chars('AB').map((key) => ({ key, targetIsInput: true })),
      ...chars('CD'),
      { key: 'Enter', targetIsInput: true },
      ...chars('EFG'),
      'Enter',
    ];
    expect(typeKeys(keys, 5)).toEqual(['EFG']);
    expect(typeKeys([...chars('ABCD'), { key: 'Enter', targetIsInput: true }], 5)).toEqual([]);
  });

  it('ignores modifier keys and shortcuts without breaking the code', () => {
    const keys: Key[] = [
      'Shift',
      'A',
      { key: 'c', ctrlKey: true },
      'Shift',
      'B',
      { key: 'v', metaKey: true },
      { key: 'x', altKey: true },
      'CapsLock',
      '7',
      'Enter',
    ];
    expect(typeKeys(keys, 5)).toEqual(['AB7']);
  });

  it('keeps AltGr characters (Ctrl+Alt) that scanners send for symbols on some layouts', () => {
    expect(typeKeys(['A', { key: '@', ctrlKey: true, altKey: true }, 'B', 'Enter'], 5)).toEqual(['A@B']);
  });

  it('ignores auto-repeat of a held key and IME composition', () => {
    expect(typeKeys(['a', { key: 'a', repeat: true }, { key: 'a', repeat: true }, 'Enter'], 30)).toEqual([]);
    expect(typeKeys(['A', { key: 'B', isComposing: true }, 'C', 'D', 'Enter'], 5)).toEqual([]);
  });

  it('does not turn a typed word with human pauses into a scan', () => {
    const gaps = [130, 95, 180, 70, 110, 240, 85];
    let t = 0;
    const keys: Key[] = [...chars('pallet'), 'Enter'].map((key, i) => ({ key, timeStamp: (t += gaps[i % gaps.length]!) }));
    expect(typeKeys(keys, 0)).toEqual([]);
  });

  it('does not turn a fast typist with a few overlapping keys into a scan', () => {
    const stamps = [0, 25, 140, 160, 300, 330, 420];
    const keys: Key[] = [...chars('stock1'), 'Enter'].map((key, i) => ({ key, timeStamp: stamps[i]! }));
    expect(typeKeys(keys, 0)).toEqual([]);
  });
});

describe('wedge joiner with a scanner prefix', () => {
  function feedAll(prefix: string, keys: Array<[string, number]>) {
    const joiner = createWedgeJoiner({ prefix });
    return keys.map(([key, timeStamp]) => joiner.feed({ key, timeStamp, targetIsInput: false })).filter((c) => c !== null);
  }

  it('reads keys that begin with the prefix as a scan however slowly they come, without the prefix', () => {
    expect(
      feedAll('~', [
        ['~', 0],
        ['A', 200],
        ['-', 900],
        ['1', 2500],
        ['Enter', 4000],
      ]),
    ).toEqual(['A-1']);
  });

  it('takes a prefix of several characters, sent at scanner speed', () => {
    expect(
      feedAll(']C', [
        [']', 0],
        ['C', 5],
        ['X', 500],
        ['Y', 505],
        ['Z', 510],
        ['Enter', 515],
      ]),
    ).toEqual(['XYZ']);
  });

  it('still reads unmarked bursts by their speed, and typing without the prefix stays typing', () => {
    expect(
      feedAll('~', [
        ['L', 0],
        ['O', 8],
        ['C', 16],
        ['Enter', 24],
      ]),
    ).toEqual(['LOC']);
    expect(
      feedAll('~', [
        ['1', 0],
        ['2', 300],
        ['Enter', 600],
      ]),
    ).toEqual([]);
  });

  it('never publishes a marked scan with nothing after the prefix', () => {
    expect(
      feedAll('~', [
        ['~', 0],
        ['Enter', 100],
      ]),
    ).toEqual([]);
  });
});

describe('attachKeyboardWedge', () => {
  let detach = () => {};
  afterEach(() => {
    detach();
    document.body.innerHTML = '';
  });

  function press(target: EventTarget, key: string, timeStamp: number, init: KeyboardEventInit = {}) {
    const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
    Object.defineProperty(event, 'timeStamp', { value: timeStamp });
    target.dispatchEvent(event);
    return event;
  }

  it('publishes a wedge scan and swallows only the terminator that completed it', () => {
    document.body.innerHTML = '<button id="ok">OK</button>';
    const button = document.getElementById('ok')!;
    const publish = vi.fn();
    const onButtonKey = vi.fn();
    button.addEventListener('keydown', onButtonKey);
    detach = attachKeyboardWedge(document, publish);

    const letters = [...'PICK-42'].map((k, i) => press(button, k, 100 + i * 10));
    const enter = press(button, 'Enter', 170);

    expect(publish).toHaveBeenCalledExactlyOnceWith({ text: 'PICK-42', format: 'UNKNOWN', source: 'wedge' });
    expect(letters.some((e) => e.defaultPrevented)).toBe(false);
    expect(enter.defaultPrevented).toBe(true);
    expect(onButtonKey.mock.calls.map(([e]) => (e as KeyboardEvent).key)).not.toContain('Enter');
  });

  it('lets a human Enter through untouched', () => {
    const publish = vi.fn();
    detach = attachKeyboardWedge(window, publish);
    press(document.body, 'a', 0);
    press(document.body, 'b', 200);
    const enter = press(document.body, 'Enter', 400);
    expect(publish).not.toHaveBeenCalled();
    expect(enter.defaultPrevented).toBe(false);
  });

  it("tells a person's key (an Enter or Tab ending no scan, Escape) and never a scanner's, so a label scanned again after it is no bounce", () => {
    let now = 0;
    const bus = createScanBus({ now: () => now });
    const screen = vi.fn();
    bus.subscribe(screen);
    const onPerson = vi.fn();
    detach = attachKeyboardWedge(window, bus.publish, { onPerson });
    const burst = (code: string, start: number) => {
      now = start;
      [...code, 'Enter'].forEach((k, i) => press(document.body, k, start + i * 8));
    };
    // A scan, Shift between its letters as scanners send it, then its trigger bounce: one scan, no person.
    now = 1000;
    ['S', 'Shift', '0', '0', '1', 'Enter'].forEach((k, i) => press(document.body, k, 1000 + i * 8));
    burst('S001', 1200);
    expect(screen.mock.calls.map(([s]) => (s as Scan).text)).toEqual(['S001']);
    expect(onPerson).not.toHaveBeenCalled();
    // A person confirms a quantity with Enter (alone, well after the burst), then scans the same label: two scans.
    press(document.body, 'Enter', 1400);
    expect(onPerson).toHaveBeenCalledTimes(1);
    onPerson.mockImplementation(bus.forgetRepeats);
    press(document.body, 'Escape', 1500);
    burst('S001', 1600);
    expect(screen.mock.calls.map(([s]) => (s as Scan).text)).toEqual(['S001', 'S001']);
    // Typed by hand: the Enter and the Tab that end it are a person's.
    press(document.body, '1', 3000);
    press(document.body, '2', 3200);
    press(document.body, 'Tab', 3400);
    expect(onPerson).toHaveBeenCalledTimes(3);
  });

  function tap(timeStamp: number) {
    const event = new Event('pointerdown', { bubbles: true });
    Object.defineProperty(event, 'timeStamp', { value: timeStamp });
    document.body.dispatchEvent(event);
  }

  it("reads a scan made just after a Space that ticked a box and a tap: the key was a person's, not a broken scan's start", () => {
    const publish = vi.fn();
    const onBroken = vi.fn();
    const onPerson = vi.fn();
    detach = attachKeyboardWedge(window, publish, { onBroken, onPerson });
    // Without the tap between, a lone key just before a burst is taken as a scanner's slow first key.
    press(document.body, ' ', 1000);
    [...'S0042', 'Enter'].forEach((k, i) => press(document.body, k, 1400 + i * 8));
    expect(publish).not.toHaveBeenCalled();
    expect(onBroken).toHaveBeenCalledTimes(1);
    // With a tap between (New package, say), the scan is whole.
    press(document.body, ' ', 5000);
    tap(5200);
    expect(onPerson).toHaveBeenCalledTimes(1);
    [...'S0042', 'Enter'].forEach((k, i) => press(document.body, k, 5400 + i * 8));
    expect(publish).toHaveBeenCalledExactlyOnceWith({ text: 'S0042', format: 'UNKNOWN', source: 'wedge' });
    expect(onBroken).toHaveBeenCalledTimes(1);
    // An Escape between is a person's too.
    press(document.body, ' ', 9000);
    press(document.body, 'Escape', 9200);
    [...'S0043', 'Enter'].forEach((k, i) => press(document.body, k, 9400 + i * 8));
    expect(publish).toHaveBeenLastCalledWith({ text: 'S0043', format: 'UNKNOWN', source: 'wedge' });
    expect(onBroken).toHaveBeenCalledTimes(1);
  });

  it('lets a tap in the middle of a burst change nothing: the burst is read whole, and no person is told', () => {
    const publish = vi.fn();
    const onPerson = vi.fn();
    detach = attachKeyboardWedge(window, publish, { onPerson });
    [...'A-01'].forEach((k, i) => press(document.body, k, 1000 + i * 8));
    tap(1030);
    [...'-3', 'Enter'].forEach((k, i) => press(document.body, k, 1032 + i * 8));
    expect(publish).toHaveBeenCalledExactlyOnceWith({ text: 'A-01-3', format: 'UNKNOWN', source: 'wedge' });
    expect(onPerson).not.toHaveBeenCalled();
  });

  /** Keys as a browser delivers them into a focused field: keydown, then (unless prevented) the character goes in. */
  function typeInto(field: HTMLInputElement, keys: string[], start: number, gap: number) {
    return keys.map((k, i) => {
      const event = press(field, k, start + i * gap);
      if (!event.defaultPrevented && [...k].length === 1) field.value += k;
      return event;
    });
  }

  it('takes a scan begun in a text field out of the field, gives it back what it held and swallows Enter', () => {
    document.body.innerHTML = '<form id="f"><input id="qty" value="2.5"></form>';
    const field = document.getElementById('qty') as HTMLInputElement;
    const publish = vi.fn();
    const onInput = vi.fn();
    field.addEventListener('input', onInput);
    const onFormKey = vi.fn();
    document.getElementById('f')!.addEventListener('keydown', onFormKey);
    detach = attachKeyboardWedge(window, publish);
    const events = typeInto(field, [...'S000006089', 'Enter'], 1000, 8);
    expect(publish).toHaveBeenCalledExactlyOnceWith({ text: 'S000006089', format: 'UNKNOWN', source: 'wedge' });
    expect(field.value).toBe('2.5');
    expect(onInput).toHaveBeenCalled();
    expect(events.at(-1)!.defaultPrevented).toBe(true);
    expect(onFormKey.mock.calls.map(([e]) => (e as KeyboardEvent).key)).not.toContain('Enter');
  });

  it('leaves hand typing in a field to the field, Enter included', () => {
    document.body.innerHTML = '<input id="qty">';
    const field = document.getElementById('qty') as HTMLInputElement;
    const publish = vi.fn();
    detach = attachKeyboardWedge(window, publish);
    const events = typeInto(field, ['1', '2', 'Enter'], 0, 150);
    expect(publish).not.toHaveBeenCalled();
    expect(field.value).toBe('12');
    expect(events.at(-1)!.defaultPrevented).toBe(false);
  });

  it('routes a scan made while a select or a checkbox has focus, and the select keeps its choice', () => {
    document.body.innerHTML = '<select id="s"><option>pick</option><option>ship</option></select><input id="c" type="checkbox">';
    const select = document.getElementById('s') as HTMLSelectElement;
    select.value = 'ship';
    const publish = vi.fn();
    detach = attachKeyboardWedge(window, publish);
    [...'LOC-9'].forEach((k, i) => press(select, k, i * 8));
    select.value = 'pick'; // what typing a letter does to a native select
    expect(press(select, 'Enter', 40).defaultPrevented).toBe(true);
    expect(select.value).toBe('ship');
    const box = document.getElementById('c')!;
    [...'LOC-8'].forEach((k, i) => press(box, k, 2000 + i * 8));
    expect(press(box, 'Enter', 2040).defaultPrevented).toBe(true);
    expect(publish.mock.calls.map(([scan]) => (scan as { text: string }).text)).toEqual(['LOC-9', 'LOC-8']);
  });

  it('says a broken burst was not read, and takes all of it out of the field', () => {
    document.body.innerHTML = '<input id="w" value="1">';
    const field = document.getElementById('w') as HTMLInputElement;
    const publish = vi.fn();
    const onBroken = vi.fn();
    detach = attachKeyboardWedge(window, publish, { onBroken });
    typeInto(field, [...'A-0'], 5000, 8);
    const tail = typeInto(field, [...'1-3', 'Enter'], 5150, 8);
    expect(publish).not.toHaveBeenCalled();
    expect(onBroken).toHaveBeenCalledOnce();
    expect(tail.at(-1)!.defaultPrevented).toBe(true);
    expect(field.value).toBe('1');
  });

  it('keeps what a person typed just before a scan: the scan is not read, the typed weight stays whole', () => {
    document.body.innerHTML = '<input id="w" value="">';
    const field = document.getElementById('w') as HTMLInputElement;
    const publish = vi.fn();
    const onBroken = vi.fn();
    detach = attachKeyboardWedge(window, publish, { onBroken });
    typeInto(field, [...'2.5'], 5000, 120);
    const burst = typeInto(field, [...'S000006089', 'Enter'], 5600, 8);
    expect(publish).not.toHaveBeenCalled();
    expect(onBroken).toHaveBeenCalledExactlyOnceWith(1);
    expect(burst.at(-1)!.defaultPrevented).toBe(true);
    expect(field.value).toBe('2.5');
  });

  it('reads a burst in a ScanInput like anywhere else: once, as a wedge scan, the field emptied again', () => {
    document.body.innerHTML = '<input id="scan" data-scan-field="">';
    const input = document.getElementById('scan') as HTMLInputElement;
    const publish = vi.fn();
    detach = attachKeyboardWedge(document, publish);
    const events = typeInto(input, [...'LOC-1', 'Enter'], 0, 5);
    expect(publish).toHaveBeenCalledExactlyOnceWith({ text: 'LOC-1', format: 'UNKNOWN', source: 'wedge' });
    expect(events.at(-1)!.defaultPrevented).toBe(true);
    expect(input.value).toBe('');
  });

  it('leaves a broken burst typed wholly into a ScanInput to the field, which kept every key', () => {
    document.body.innerHTML = '<input id="scan" data-scan-field="">';
    const input = document.getElementById('scan') as HTMLInputElement;
    const publish = vi.fn();
    const onBroken = vi.fn();
    detach = attachKeyboardWedge(window, publish, { onBroken });
    typeInto(input, [...'A-0'], 5000, 8);
    const tail = typeInto(input, [...'1-3', 'Enter'], 5150, 8);
    expect(publish).not.toHaveBeenCalled();
    expect(onBroken).not.toHaveBeenCalled();
    expect(tail.at(-1)!.defaultPrevented).toBe(false);
    expect(input.value).toBe('A-01-3');
  });

  it('reads a burst whole when the focus moves into a field halfway, and empties that field of it', () => {
    document.body.innerHTML = '<button id="b">New package</button><input id="scan" data-scan-field="">';
    const button = document.getElementById('b')!;
    const input = document.getElementById('scan') as HTMLInputElement;
    const publish = vi.fn();
    detach = attachKeyboardWedge(window, publish);
    [...'S00000608'].forEach((k, i) => press(button, k, 100 + i * 8));
    // A request answered: the screen put the focus in its scan field.
    typeInto(input, ['9', 'Enter'], 172, 8);
    expect(publish).toHaveBeenCalledExactlyOnceWith({ text: 'S000006089', format: 'UNKNOWN', source: 'wedge' });
    expect(input.value).toBe('');
  });

  it('with a prefix, takes a slow scan out of the field it began in', () => {
    document.body.innerHTML = '<input id="w" value="4">';
    const field = document.getElementById('w') as HTMLInputElement;
    const publish = vi.fn();
    detach = attachKeyboardWedge(window, publish, { prefix: '~' });
    typeInto(field, [...'~S0061'], 10_000, 120);
    const enter = press(field, 'Enter', 11_000);
    expect(publish).toHaveBeenCalledExactlyOnceWith({ text: 'S0061', format: 'UNKNOWN', source: 'wedge' });
    expect(enter.defaultPrevented).toBe(true);
    expect(field.value).toBe('4');
  });

  it('stops listening after detach', () => {
    const publish = vi.fn();
    attachKeyboardWedge(document, publish)();
    [...'ABC'].forEach((k, i) => press(document.body, k, i * 5));
    press(document.body, 'Enter', 20);
    expect(publish).not.toHaveBeenCalled();
  });
});
