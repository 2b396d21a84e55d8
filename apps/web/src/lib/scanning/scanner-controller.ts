import { BARCODE_DEFAULTS } from '@floorhand/contract/constants';
import { fill, tk } from '@floorhand/contract/i18n';
import { dialogs } from '../../components/dialogs/dialog-store.ts';
import { useMachineStore } from '../machine-store.ts';
import { playBeep, playErrorBuzz, vibrate } from './beep.ts';
import { cameraConstraints, decodeClient, scanBoxCrop, setTorch, stopStream, torchSupported } from './camera.ts';
import { cameraTransition, type CameraState } from './camera-machine.ts';
import { scanImageFile, type DecodedBarcode, type DecodeOptions } from './decoder.ts';
import { scanBoxSize, transition, type OverlayEffect, type OverlayEvent, type OverlayState } from './overlay-machine.ts';
import { SCAN_REPEAT_WINDOW_MS, scanBus, type Scan } from './scan-bus.ts';
import {
  cameraMissingDialog,
  cameraPreflight,
  isCameraInaccessibleError,
  qrCodeParseError,
  SCANNER_PAUSED,
  userMediaError,
} from './scanner-messages.ts';
import { closeScanner, useScannerStore, type BarcodeSettings } from './scanner-store.ts';

/**
 * Camera frames are small crops decoded many times a second, so the decoder gives up quickly on a
 * frame (the next one comes soon) and stops at the first symbol. Rotation stays on: a handheld is
 * held at any angle. bench/scan measures these settings.
 */
export const CAMERA_DECODE_OPTIONS: DecodeOptions = {
  tryHarder: false,
  tryRotate: true,
  tryInvert: false,
  tryDownscale: true,
  maxNumberOfSymbols: 1,
};
export const NO_BARCODE_IN_IMAGE = tk('No barcode was found in the image. If it has one, its format may be switched off in App Settings.');
/** A file scan saw a barcode of a format this device does not read: said, never published. */
export const formatSwitchedOff = (format: string) =>
  fill(tk('The image has a barcode of format {{0}}, but {{0}} is switched off in App Settings (Barcode formats).'), format);

export type Torch = 'none' | 'off' | 'on';
/** What the overlay shows: the controller patches it, the component draws it. */
export type ScannerUi = { state: OverlayState; message: string | null; torch: Torch; reads: number; busy: boolean };
export const CLOSED_SCANNER_UI: ScannerUi = { state: 'closed', message: null, torch: 'none', reads: 0, busy: false };

/**
 * The scanner overlay's camera controller, without React: runs the pure overlay machine
 * (overlay-machine.ts) and its effects: camera, timer, feedback and
 * publishing. Async camera work carries the session number it started under; stopping bumps it, so
 * a stream or frame that arrives after the overlay closed is dropped instead of lighting the camera.
 */
export function createScannerController(
  video: () => HTMLVideoElement | null,
  patchUi: (patch: Partial<ScannerUi>) => void,
  pickFile: () => void,
) {
  let state: OverlayState = 'closed';
  let camera: CameraState = 'notStarted';
  let session = 0;
  let stream: MediaStream | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let loop: ReturnType<typeof setInterval> | undefined;
  let pending: Scan | null = null;
  let lastCamera: { text: string; at: number } | null = null;
  let reads = 0;
  let continuous = false;
  let settings: BarcodeSettings = useMachineStore.getState().barcode;

  const dispatch = (event: OverlayEvent): void => {
    const next = transition(state, event, { continuous, beep: settings.beep, vibrate: settings.vibrate });
    state = next.state;
    patchUi({ state });
    for (const effect of next.effects) run(effect);
    if (state === 'closed' && useScannerStore.getState().open) closeScanner();
  };

  const run = (effect: OverlayEffect): void => {
    switch (effect) {
      case 'startCamera':
        return void startCamera();
      case 'stopCamera':
        return stopCamera();
      case 'startTimer':
        clearTimeout(timer);
        timer = setTimeout(() => dispatch({ type: 'timeout' }), settings.timeoutSecs * 1000);
        return;
      case 'clearTimer':
        return clearTimeout(timer);
      case 'publish':
        if (pending) scanBus.publish(pending);
        pending = null;
        return;
      case 'beep':
        return void playBeep();
      case 'buzz':
        return void playErrorBuzz();
      case 'vibrate':
        return void vibrate(BARCODE_DEFAULTS.vibrateMs);
    }
  };

  const read = (found: DecodedBarcode, source: 'camera' | 'file'): void => {
    if (state === 'closed') return;
    // In continuous mode a label held in front of the camera is one read, not a beep per frame.
    const now = performance.now();
    if (source === 'camera' && lastCamera?.text === found.text && now - lastCamera.at <= SCAN_REPEAT_WINDOW_MS) {
      lastCamera.at = now;
      return;
    }
    if (source === 'camera') lastCamera = { text: found.text, at: now };
    pending = { text: found.text, format: found.format, source };
    patchUi({ reads: ++reads, message: null });
    dispatch({ type: 'read' });
  };

  async function startCamera(): Promise<void> {
    const mine = session;
    const blocked = cameraPreflight();
    if (blocked) return patchUi({ message: blocked });
    if (!settings.cam) {
      patchUi({ message: cameraMissingDialog('notConfigured').message });
      return cameraMissing('notConfigured');
    }
    const step = cameraTransition(camera, 'start');
    if (!step.ok) return;
    camera = step.state;
    patchUi({ message: null });
    // The worker compiles the .wasm while the camera starts, not on the first frame.
    if (typeof Worker === 'function') decodeClient();
    try {
      const started = await navigator.mediaDevices.getUserMedia(cameraConstraints(settings.cam));
      if (mine !== session) return stopStream(started);
      stream = started;
      const element = video();
      if (element) {
        element.srcObject = started;
        // autoPlay starts it too; a refused play() only delays the picture, not the decoding.
        await Promise.resolve()
          .then(() => element.play())
          .catch(() => undefined);
      }
      if (mine !== session) return;
      patchUi({ torch: torchSupported(started.getVideoTracks()[0]) ? 'off' : 'none' });
      dispatch({ type: 'started' });
      startLoop(mine);
    } catch (error) {
      if (mine !== session) return;
      camera = 'notStarted';
      if (!isCameraInaccessibleError(error)) return patchUi({ message: userMediaError(error) });
      patchUi({ message: cameraMissingDialog('inaccessible').message });
      cameraMissing('inaccessible');
    }
  }

  /** The Camera missing dialog, with a way straight to an image file (no camera is needed for that). */
  function cameraMissing(reason: 'notConfigured' | 'inaccessible'): void {
    void dialogs.cameraMissing(reason, { imageFile: true }).then((result) => {
      if (result !== 'pos' || state === 'closed') return;
      run('clearTimer');
      pickFile();
    });
  }

  // Frames are taken at the configured fps, but a new one only once the worker answered the last:
  // a slow decoder lowers the rate instead of building a queue.
  function startLoop(mine: number): void {
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    let busy = false;
    clearInterval(loop);
    loop = setInterval(
      () => {
        const element = video();
        if (mine !== session || busy || !context || !element || element.readyState < 2 || !element.videoWidth) return;
        const frame = { width: element.videoWidth, height: element.videoHeight };
        const view = { width: element.clientWidth || frame.width, height: element.clientHeight || frame.height };
        const crop = scanBoxCrop(frame, view, scanBoxSize(view.width, view.height));
        canvas.width = crop.sw;
        canvas.height = crop.sh;
        context.drawImage(element, crop.sx, crop.sy, crop.sw, crop.sh, 0, 0, crop.sw, crop.sh);
        busy = true;
        decodeClient()
          .decode(context.getImageData(0, 0, crop.sw, crop.sh), [...settings.formats], CAMERA_DECODE_OPTIONS)
          .then(
            ({ results }) => {
              busy = false;
              if (mine === session && results[0]) read(results[0], 'camera');
            },
            (error: unknown) => {
              busy = false;
              if (mine === session) patchUi({ message: qrCodeParseError(error) });
            },
          );
      },
      1000 / Math.max(1, settings.fps),
    );
  }

  function stopCamera(): void {
    session++;
    clearInterval(loop);
    stopStream(stream);
    stream = null;
    const element = video();
    if (element) element.srcObject = null;
    camera = cameraTransition(camera, 'stop').state;
    patchUi({ torch: 'none' });
  }

  return {
    dispatch,
    open(request: { continuous: boolean; settings: BarcodeSettings | null }): void {
      if (state !== 'closed') return;
      continuous = request.continuous;
      settings = request.settings ?? useMachineStore.getState().barcode;
      lastCamera = null;
      reads = 0;
      patchUi({ ...CLOSED_SCANNER_UI });
      dispatch({ type: 'open' });
    },
    /** The page is hidden (screen off, another app): stop decoding until it is back. */
    pause(): void {
      const step = cameraTransition(camera, 'pause');
      if (!step.ok) return;
      camera = step.state;
      clearInterval(loop);
      patchUi({ message: SCANNER_PAUSED });
    },
    resume(): void {
      const step = cameraTransition(camera, 'resume');
      if (!step.ok) return;
      camera = step.state;
      patchUi({ message: null });
      if (stream) startLoop(session);
    },
    /** The file picker is open: a person choosing a file is not idle. */
    pauseTimer: () => run('clearTimer'),
    resumeTimer: () => state !== 'closed' && run('startTimer'),
    async scanFile(file: File): Promise<void> {
      if (state === 'closed') return;
      const restart = camera !== 'notStarted';
      if (camera !== 'notStarted') stopCamera();
      const step = cameraTransition(camera, 'scanFile');
      if (!step.ok) return patchUi({ message: step.error });
      patchUi({ message: null, busy: true });
      try {
        const scan = await scanImageFile(file, [...settings.formats]);
        patchUi({
          busy: false,
          message: 'found' in scan ? null : 'switchedOff' in scan ? formatSwitchedOff(scan.switchedOff) : NO_BARCODE_IN_IMAGE,
        });
        if ('found' in scan) read(scan.found, 'file');
      } catch (error) {
        patchUi({ busy: false, message: qrCodeParseError(error) });
      }
      // The read may have closed the overlay meanwhile (TypeScript cannot see that through read()).
      if ((state as OverlayState) === 'closed') return;
      run('startTimer');
      if (restart) void startCamera();
    },
    async toggleTorch(on: boolean): Promise<void> {
      const track = stream?.getVideoTracks()[0];
      if (!track) return;
      try {
        await setTorch(track, on);
        patchUi({ torch: on ? 'on' : 'off' });
      } catch {
        patchUi({ torch: 'none' });
      }
    },
    dispose(): void {
      clearTimeout(timer);
      if (state !== 'closed') stopCamera();
      state = 'closed';
    },
  };
}

export type ScannerController = ReturnType<typeof createScannerController>;
