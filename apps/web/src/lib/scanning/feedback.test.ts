import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMachineStore } from '../machine-store.ts';
import * as beep from './beep.ts';
import { readFeedback, refusedFeedback } from './feedback.ts';

describe('scan feedback', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a read and a refusal sound and vibrate differently, as App Settings allow', () => {
    const tone = vi.spyOn(beep, 'playBeep').mockReturnValue(true);
    const buzz = vi.spyOn(beep, 'playErrorBuzz').mockReturnValue(true);
    const shake = vi.spyOn(beep, 'vibrate').mockReturnValue(true);
    useMachineStore.setState({ barcode: { ...useMachineStore.getState().barcode, beep: true, vibrate: true } });
    readFeedback();
    refusedFeedback();
    expect(tone).toHaveBeenCalledOnce();
    expect(buzz).toHaveBeenCalledOnce();
    expect(shake.mock.calls).toEqual([[80], [600]]);
    useMachineStore.setState({ barcode: { ...useMachineStore.getState().barcode, beep: false, vibrate: false } });
    readFeedback();
    refusedFeedback();
    expect(tone).toHaveBeenCalledOnce();
    expect(shake).toHaveBeenCalledTimes(2);
  });
});
