import { describe, expect, it } from 'vitest';
import { toSVG } from 'bwip-js/browser';
import { badgeSvg } from './badge-svg.ts';

describe('staff badge barcode', () => {
  it('is the same Code 128 SVG that bwip-js draws with its whole symbology table', () => {
    for (const code of ['B-1042', 'CLERK0001', 'ä#@ 12']) {
      expect(badgeSvg(code)).toBe(
        toSVG({ bcid: 'code128', text: code, scale: 2, height: 9, includetext: true, textxalign: 'center', textsize: 9 }),
      );
    }
    expect(badgeSvg('B-1042')).toMatch(/^<svg /);
  });
});
