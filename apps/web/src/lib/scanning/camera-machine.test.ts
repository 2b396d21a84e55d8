import { describe, expect, it } from 'vitest';
import { cameraTransition, type CameraAction, type CameraState } from './camera-machine.ts';

const states: CameraState[] = ['notStarted', 'scanning', 'paused'];
const actions: CameraAction[] = ['start', 'pause', 'resume', 'stop', 'scanFile'];

describe('camera scanner', () => {
  it('allows exactly the transitions of the spec', () => {
    const outcome = (s: CameraState, a: CameraAction) => {
      const result = cameraTransition(s, a);
      return result.ok ? result.state : 'error';
    };
    const table = Object.fromEntries(actions.map((a) => [a, Object.fromEntries(states.map((s) => [s, outcome(s, a)]))]));
    expect(table).toEqual({
      start: { notStarted: 'scanning', scanning: 'error', paused: 'error' },
      pause: { notStarted: 'error', scanning: 'paused', paused: 'error' },
      resume: { notStarted: 'error', scanning: 'error', paused: 'scanning' },
      stop: { notStarted: 'error', scanning: 'notStarted', paused: 'notStarted' },
      scanFile: { notStarted: 'notStarted', scanning: 'error', paused: 'error' },
    });
  });

  it('returns a clear error and keeps the state instead of throwing', () => {
    expect(cameraTransition('paused', 'pause')).toEqual({
      ok: false,
      state: 'paused',
      error: 'Cannot pause the camera: the camera scanner is paused, and it pauses only while scanning.',
    });
    expect(cameraTransition('scanning', 'scanFile')).toEqual({
      ok: false,
      state: 'scanning',
      error: 'Cannot scan an image file: the camera scanner is scanning, and a file is scanned only while the camera is not started.',
    });
  });

  it('has a message for every disallowed transition', () => {
    for (const s of states)
      for (const a of actions) {
        const result = cameraTransition(s, a);
        if (!result.ok) expect(result.error).toMatch(/^Cannot .+: the camera scanner is .+, and .+\.$/);
      }
  });
});
