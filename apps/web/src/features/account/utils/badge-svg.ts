import { code128, drawingSVG } from 'bwip-js/browser';

/**
 * The badge code as a Code 128 SVG, the text drawn as paths (so the SVG carries no text from the
 * user as markup). Only bwip-js's Code 128 encoder is imported: its whole symbology table is a
 * quarter of a megabyte of gzip.
 */
export const badgeSvg = (code: string): string =>
  code128({ bcid: 'code128', text: code, scale: 2, height: 9, includetext: true, textxalign: 'center', textsize: 9 }, drawingSVG());
