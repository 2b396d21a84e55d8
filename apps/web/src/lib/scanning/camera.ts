import { create } from 'zustand';
import type { BarcodeFormat } from '@floorhand/contract/constants';
import type { CameraChoice } from '../machine-store.ts';
import type { DecodedBarcode, DecodeOptions } from './decoder.ts';
import type { DecodeWorkerRequest, DecodeWorkerResponse } from './decode.worker.ts';
import { zxingReaderWasmUrl } from './decoder-wasm-url.ts';
import { CAMERA_DEVICES_QUERY_FAILED, cameraPreflight } from './scanner-messages.ts';
import { i18n } from '../i18n.ts';

/** The frame size asked of a scanning camera: enough for a label at arm's length, cheap to decode. */
export const SCAN_FRAME = { width: 640, height: 480 } as const;
/** Longest side of a captured photo after downscaling; a 1280 px JPEG stays far below the 2 MB upload cap. */
export const PHOTO_MAX_SIDE = 1280;

export function cameraConstraints(cam: CameraChoice, size: { width: number; height: number } = SCAN_FRAME): MediaStreamConstraints {
  return { audio: false, video: { deviceId: { exact: cam.deviceId }, width: { ideal: size.width }, height: { ideal: size.height } } };
}

export function stopStream(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** What a camera track reports as its size, e.g. '640x480', for the machine settings. */
export function trackResolution(stream: MediaStream): string | undefined {
  const { width, height } = stream.getVideoTracks()[0]?.getSettings() ?? {};
  return width && height ? `${width}x${height}` : undefined;
}

type TorchCapabilities = MediaTrackCapabilities & { torch?: boolean };
export const torchSupported = (track: MediaStreamTrack | undefined): boolean =>
  !!track && typeof track.getCapabilities === 'function' && (track.getCapabilities() as TorchCapabilities).torch === true;

export function setTorch(track: MediaStreamTrack, on: boolean): Promise<void> {
  return track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
}

export type Crop = { sx: number; sy: number; sw: number; sh: number };

/**
 * The part of a video frame under the on-screen scan box. The video fills the view with
 * object-fit: cover (scaled up and centred), so the box is mapped back through that scale and
 * clipped to the frame. Decoding only the box is faster and reads only what the worker aims at.
 */
export function scanBoxCrop(video: { width: number; height: number }, view: { width: number; height: number }, box: number): Crop {
  const scale = Math.max(view.width / video.width, view.height / video.height);
  const offsetX = (view.width - video.width * scale) / 2;
  const offsetY = (view.height - video.height * scale) / 2;
  const x0 = Math.max(0, ((view.width - box) / 2 - offsetX) / scale);
  const y0 = Math.max(0, ((view.height - box) / 2 - offsetY) / scale);
  const x1 = Math.min(video.width, ((view.width + box) / 2 - offsetX) / scale);
  const y1 = Math.min(video.height, ((view.height + box) / 2 - offsetY) / scale);
  return { sx: Math.floor(x0), sy: Math.floor(y0), sw: Math.max(1, Math.round(x1 - x0)), sh: Math.max(1, Math.round(y1 - y0)) };
}

/** A size that fits within maxSide on its longest side, keeping the aspect; never scales up. */
export function fitWithin(width: number, height: number, maxSide: number = PHOTO_MAX_SIDE): { width: number; height: number } {
  const factor = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * factor)), height: Math.max(1, Math.round(height * factor)) };
}

// ---- Cameras of this device, shared by every camera choice on a page -------------------------

export type CameraDevice = { deviceId: string; label: string };
type CameraListState = { devices: CameraDevice[]; needsPermission: boolean; error: string | null; loaded: boolean };

export const useCameraList = create<CameraListState>()(() => ({ devices: [], needsPermission: false, error: null, loaded: false }));

/**
 * Lists the video inputs. Before the site has camera permission Chrome hides ids and labels, so
 * with `ask` a short stream is opened to get the permission prompt; without it the caller offers a
 * button instead of prompting on page load.
 */
export async function refreshCameras(ask = false): Promise<void> {
  const blocked = cameraPreflight();
  if (blocked) return useCameraList.setState({ error: blocked, loaded: true });
  try {
    if (ask) stopStream(await navigator.mediaDevices.getUserMedia({ video: true, audio: false }));
    const inputs = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
    const needsPermission = inputs.some((d) => !d.deviceId);
    const devices = inputs
      .filter((d) => d.deviceId)
      .map((d, i) => ({ deviceId: d.deviceId, label: d.label || i18n.t('Camera {{n}}', { n: i + 1 }) }));
    useCameraList.setState({ devices, needsPermission, error: null, loaded: true });
  } catch (error) {
    useCameraList.setState({ error: ask ? describe(error) : CAMERA_DEVICES_QUERY_FAILED, loaded: true });
  }
}

const describe = (error: unknown) =>
  error instanceof Error || error instanceof DOMException ? `${error.name}: ${error.message}` : CAMERA_DEVICES_QUERY_FAILED;

// ---- The decode worker -----------------------------------------------------------------------

export type FrameResult = { results: DecodedBarcode[]; decodeMs: number };
export type DecodeClient = { decode(image: ImageData, formats: BarcodeFormat[], options?: DecodeOptions): Promise<FrameResult> };

let client: DecodeClient | undefined;

/**
 * One worker for the page's lifetime, made on first use: the .wasm is compiled once, not on every
 * overlay open. Replies are matched to requests by id.
 */
export function decodeClient(): DecodeClient {
  if (client) return client;
  const worker = new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module' });
  const waiting = new Map<number, { resolve(r: FrameResult): void; reject(e: Error): void }>();
  let nextId = 1;
  worker.addEventListener('message', (event: MessageEvent<DecodeWorkerResponse>) => {
    const reply = event.data;
    if (reply.type === 'ready') return;
    // A failed init has no id: every frame waiting on the module fails with it.
    const targets = reply.id === undefined ? [...waiting.keys()] : [reply.id];
    for (const id of targets) {
      const pending = waiting.get(id);
      waiting.delete(id);
      if (reply.type === 'result') pending?.resolve({ results: reply.results, decodeMs: reply.decodeMs });
      else pending?.reject(new Error(reply.message));
    }
  });
  const post = (request: DecodeWorkerRequest, transfer: Transferable[] = []) => worker.postMessage(request, transfer);
  post({ type: 'init', wasmUrl: new URL(zxingReaderWasmUrl, location.href).href });
  client = {
    decode(imageData, formats, options) {
      const id = nextId++;
      return new Promise<FrameResult>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        post({ type: 'frame', id, imageData, formats, options }, [imageData.data.buffer]);
      });
    },
  };
  return client;
}
