import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMachineStore } from '../machine-store.ts';
import * as beep from './beep.ts';
import { notifications } from '@mantine/notifications';
import '../i18n.ts';
import { readFeedback, refusedFeedback, refuseScan } from './feedback.ts';
import { refused } from './meaning.ts';

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

  it("a camera's or an image file's read is not beeped again: the overlay beeped it", () => {
    const tone = vi.spyOn(beep, 'playBeep').mockReturnValue(true);
    useMachineStore.setState({ barcode: { ...useMachineStore.getState().barcode, beep: true, vibrate: false } });
    readFeedback({ source: 'camera' });
    readFeedback({ source: 'file' });
    expect(tone).not.toHaveBeenCalled();
    readFeedback({ source: 'wedge' });
    readFeedback({ source: 'input' });
    expect(tone).toHaveBeenCalledTimes(2);
  });

  it('a refusal buzzes and says why, replacing the refusal before it', () => {
    const buzz = vi.spyOn(beep, 'playErrorBuzz').mockReturnValue(true);
    const show = vi.spyOn(notifications, 'show').mockReturnValue('');
    const hide = vi.spyOn(notifications, 'hide').mockReturnValue('');
    useMachineStore.setState({ barcode: { ...useMachineStore.getState().barcode, beep: true, vibrate: false } });
    refuseScan(refused('Confirm or cancel the count of {{label}} first', { label: 'S1' }));
    refuseScan(refused('Confirm or cancel the count of {{label}} first', { label: 'S2' }), 'S9');
    expect(buzz).toHaveBeenCalledTimes(2);
    const ids = show.mock.calls.map(([n]) => n.id);
    // Each its own notice (one id hidden and shown again at once lost the new notice to the old one's closing).
    expect(new Set(ids).size).toBe(2);
    expect(hide.mock.calls.at(-1)).toEqual([ids[0]]);
    expect(show.mock.calls.map(([n]) => [n.title, n.message, n.color])).toEqual([
      [undefined, 'Confirm or cancel the count of S1 first', 'red'],
      ['S9', 'Confirm or cancel the count of S2 first', 'red'],
    ]);
  });
});
