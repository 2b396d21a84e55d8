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

const STATE_WORDS: Record<CameraState, string> = { notStarted: 'not started', scanning: 'scanning', paused: 'paused' };
const REFUSALS: Record<CameraAction, [verb: string, rule: string]> = {
  start: ['start the camera', 'it starts only from not started'],
  pause: ['pause the camera', 'it pauses only while scanning'],
  resume: ['resume the camera', 'it resumes only when paused'],
  stop: ['stop the camera', 'it stops only while scanning or paused'],
  scanFile: ['scan an image file', 'a file is scanned only while the camera is not started'],
};

/** The camera scanner of spec section 4. A disallowed action is an error value, never a throw. */
export function cameraTransition(state: CameraState, action: CameraAction): CameraTransition {
  const next = ALLOWED[action][state];
  if (next !== undefined) return { ok: true, state: next };
  const [verb, rule] = REFUSALS[action];
  return { ok: false, state, error: `Cannot ${verb}: the camera scanner is ${STATE_WORDS[state]}, and ${rule}.` };
}
