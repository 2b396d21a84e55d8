import { describe, expect, it } from 'vitest';
import { LEVEL_TOOLTIP, withLevel } from './feature-grid.tsx';

describe('feature grid', () => {
  it('sets and clears cells, dropping empty roles', () => {
    const a = withLevel({}, 'picker', 'stockPick', 0);
    expect(a).toEqual({ picker: { stockPick: 0 } });
    const b = withLevel(a, '*', 'shipping', 1);
    expect(b).toEqual({ picker: { stockPick: 0 }, '*': { shipping: 1 } });
    expect(withLevel(b, 'picker', 'stockPick', null)).toEqual({ '*': { shipping: 1 } });
    expect(a).toEqual({ picker: { stockPick: 0 } });
  });

  it('uses the spec’s tooltip wording', () => {
    expect(LEVEL_TOOLTIP).toEqual({ null: 'default use', 0: 'members have no access', 1: 'full access' });
  });
});
