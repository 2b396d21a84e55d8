import { describe, expect, it } from 'vitest';
import {
  DECIDED_FROM,
  isSheetCountable,
  isSheetDecidable,
  isSheetReviewable,
  LINE_DECISIONS,
  LINE_STATUSES,
  mayDecide,
  mayTransition,
  SHEET_STATES,
  SHEET_TRANSITIONS,
  type SheetState,
} from './counts.ts';

const statesWhere = (rule: (s: SheetState) => boolean) => SHEET_STATES.filter(rule);

describe('sheet states', () => {
  it('starts an open sheet, sends a counting one to review, cancels any not posted or cancelled', () => {
    expect(statesWhere((s) => mayTransition('start', s))).toEqual(['open']);
    expect(statesWhere((s) => mayTransition('submit', s))).toEqual(['counting']);
    expect(statesWhere((s) => mayTransition('cancel', s))).toEqual(['open', 'counting', 'review']);
    expect([...SHEET_TRANSITIONS].map(([t, { to }]) => [t, to])).toEqual([
      ['start', 'counting'],
      ['submit', 'review'],
      ['cancel', 'cancelled'],
    ]);
  });

  it('counts on open, counting and review sheets; reviews once counting is done; decides and posts in review', () => {
    expect(statesWhere(isSheetCountable)).toEqual(['open', 'counting', 'review']);
    expect(statesWhere(isSheetReviewable)).toEqual(['review', 'posted']);
    expect(statesWhere(isSheetDecidable)).toEqual(['review']);
  });
});

describe('count-line decisions', () => {
  it('accepts counted lines, excludes and recounts any undecided the other way, never touches posted lines', () => {
    const from = (d: (typeof LINE_DECISIONS)[number]) => LINE_STATUSES.filter((s) => mayDecide(d, s));
    expect(from('accept')).toEqual(['counted']);
    expect(from('exclude')).toEqual(['counted', 'recount', 'accepted']);
    expect(from('recount')).toEqual(['counted', 'accepted', 'excluded']);
    for (const d of LINE_DECISIONS) {
      expect(mayDecide(d, 'posted')).toBe(false);
      expect(DECIDED_FROM.has(d)).toBe(true);
    }
  });
});
