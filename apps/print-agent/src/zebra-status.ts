import type { PrinterState } from '@floorhand/contract/labels';

// The answer of a Zebra printer to ~HS (host status): three lines, each between STX (0x02) and ETX
// (0x03). Line 1: aaa,b,c,dddd,eee,f,g,h,iii,j,k,l with b = paper out, c = paused. Line 2:
// mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www with o = head up (open), p = ribbon out. (ZPL II Programming
// Guide, ~HS.) Anything else is 'unknown'.

export interface HostStatus {
  state: PrinterState;
  detail?: string;
  /** Line 1's eee: label formats waiting in the printer's receive buffer (not yet started). */
  formatsInBuffer?: number;
  /** Line 2's uuuuuuuu: labels still to print of the format being printed (its ^PQ batch). */
  labelsRemaining?: number;
}

export function parseHostStatus(answer: string): HostStatus {
  // eslint-disable-next-line no-control-regex -- STX and ETX are the frame of the answer
  const lines = [...answer.matchAll(/\x02([^\x03]*)\x03/g)].map((m) => m[1]!.split(','));
  const [one, two] = lines;
  if (!one || one.length < 3 || !two || two.length < 4)
    return { state: 'unknown', detail: 'The printer answered ~HS in a form not understood' };
  const flag = (v: string | undefined) => v?.trim() === '1';
  const problems: Array<[PrinterState, string]> = [];
  if (flag(two[2])) problems.push(['headOpen', 'head open']);
  if (flag(one[1])) problems.push(['paperOut', 'paper out']);
  if (flag(two[3])) problems.push(['ribbonOut', 'ribbon out']);
  if (flag(one[2])) problems.push(['paused', 'paused']);
  const counters: Pick<HostStatus, 'formatsInBuffer' | 'labelsRemaining'> = {};
  const count = (v: string | undefined) => (v !== undefined && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined);
  const formats = count(one[4]);
  const remaining = count(two[8]);
  if (formats !== undefined && remaining !== undefined) {
    counters.formatsInBuffer = formats;
    counters.labelsRemaining = remaining;
  }
  const [first] = problems;
  if (!first) return { state: 'online', ...counters };
  return { state: first[0], detail: problems.map((p) => p[1]).join(', '), ...counters };
}

/** A ~HS answer with the given flags (the test printer's, and the tests'). */
export function hostStatusAnswer(
  flags: { paperOut?: boolean; paused?: boolean; headOpen?: boolean; ribbonOut?: boolean } = {},
  counters: { formatsInBuffer?: number; labelsRemaining?: number } = {},
): string {
  const b = (v?: boolean) => (v ? '1' : '0');
  const eee = String(counters.formatsInBuffer ?? 0).padStart(3, '0');
  const u = String(counters.labelsRemaining ?? 0).padStart(8, '0');
  return `\x02030,${b(flags.paperOut)},${b(flags.paused)},1218,${eee},0,0,0,000,0,0,0\x03\r\n\x02001,0,${b(flags.headOpen)},${b(flags.ribbonOut)},1,2,6,0,${u},1,000\x03\r\n\x021234,0\x03\r\n`;
}
