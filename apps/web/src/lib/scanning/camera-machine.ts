import { tk } from '@floorhand/contract/i18n';

export type CameraState = 'notStarted' | 'scanning' | 'paused';
export type CameraAction = 'start' | 'pause' | 'resume' | 'stop' | 'scanFile';
export type CameraTransition = { ok: true; state: CameraState } | { ok: false; state: CameraState; error: string };

// A file scan decodes a picked image and leaves the camera state as it was.
const ALLOWED: Record<CameraAction, Partial<Record<CameraState, CameraState>>> = {
  start: { notStarted: 'scanning' },
  pause: { scanning: 'paused' },
  resume: { paused: 'scanning' },
  stop: { scanning: 'notStarted', paused: 'notStarted' },
  scanFile: { notStarted: 'notStarted' },
};

// Each piece is a key of its own: the screen translates the message's key and the pieces in its holes.
const STATE_WORDS: Record<CameraState, string> = { notStarted: tk('not started'), scanning: tk('scanning'), paused: tk('paused') };
const REFUSALS: Record<CameraAction, [verb: string, rule: string]> = {
  start: [tk('start the camera'), tk('it starts only from not started')],
  pause: [tk('pause the camera'), tk('it pauses only while scanning')],
  resume: [tk('resume the camera'), tk('it resumes only when paused')],
  stop: [tk('stop the camera'), tk('it stops only while scanning or paused')],
  scanFile: [tk('scan an image file'), tk('a file is scanned only while the camera is not started')],
};

/** The camera scanner of spec section 4. A disallowed action is an error value, never a throw. */
export function cameraTransition(state: CameraState, action: CameraAction): CameraTransition {
  const next = ALLOWED[action][state];
  if (next !== undefined) return { ok: true, state: next };
  const [verb, rule] = REFUSALS[action];
  return { ok: false, state, error: tk(`Cannot ${verb}: the camera scanner is ${STATE_WORDS[state]}, and ${rule}.`) };
}
