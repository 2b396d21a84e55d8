/// <reference lib="webworker" />
// The camera decode loop runs here so a slow frame never blocks the page. Start it with
// new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module' }).
import type { BarcodeFormat } from '@floorhand/contract/constants';
import { configureWasm, decodeImageData, preloadDecoder, type DecodedBarcode, type DecodeOptions } from './decoder.ts';
import { describeError } from './scanner-messages.ts';

export type DecodeWorkerRequest =
  | { type: 'init'; wasmUrl: string }
  /** Transfer imageData.data.buffer: frames are large and the sender does not need them back. */
  | { type: 'frame'; id: number; imageData: ImageData; formats: BarcodeFormat[]; options?: DecodeOptions };

export type DecodeWorkerResponse =
  | { type: 'ready'; loadMs: number }
  | { type: 'result'; id: number; results: DecodedBarcode[]; decodeMs: number }
  | { type: 'error'; id?: number; message: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (response: DecodeWorkerResponse) => scope.postMessage(response);

scope.addEventListener('message', (event: MessageEvent<DecodeWorkerRequest>) => {
  const request = event.data;
  const started = performance.now();
  if (request.type === 'init') {
    configureWasm(request.wasmUrl);
    preloadDecoder().then(
      () => post({ type: 'ready', loadMs: performance.now() - started }),
      (error: unknown) => post({ type: 'error', message: describeError(error) }),
    );
    return;
  }
  decodeImageData(request.imageData, request.formats, request.options).then(
    (results) => post({ type: 'result', id: request.id, results, decodeMs: performance.now() - started }),
    (error: unknown) => post({ type: 'error', id: request.id, message: describeError(error) }),
  );
});
