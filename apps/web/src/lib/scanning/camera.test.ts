import { describe, expect, it } from 'vitest';
import { cameraConstraints, fitWithin, scanBoxCrop } from './camera.ts';
import { scanBoxSize } from './overlay-machine.ts';

describe('scanBoxCrop', () => {
  it('maps the box of a portrait handheld view onto a landscape 640x480 frame', () => {
    // cover: the frame is scaled by 640/480 to 853x640 and centred, 246.7 px cut off each side.
    const view = { width: 360, height: 640 };
    const crop = scanBoxCrop({ width: 640, height: 480 }, view, scanBoxSize(view.width, view.height));
    expect(crop).toEqual({ sx: 205, sy: 125, sw: 230, sh: 230 });
  });

  it('maps the box of a desktop view, clipped to nothing outside the frame', () => {
    const view = { width: 1440, height: 900 };
    const crop = scanBoxCrop({ width: 640, height: 480 }, view, scanBoxSize(view.width, view.height));
    expect(crop).toEqual({ sx: 150, sy: 70, sw: 340, sh: 340 });
  });

  it('never leaves the frame, even for a box larger than the view', () => {
    const crop = scanBoxCrop({ width: 640, height: 480 }, { width: 640, height: 480 }, 2000);
    expect(crop).toEqual({ sx: 0, sy: 0, sw: 640, sh: 480 });
  });
});

describe('fitWithin', () => {
  it.each([
    [4000, 3000, { width: 1280, height: 960 }],
    [1080, 1920, { width: 720, height: 1280 }],
    [640, 480, { width: 640, height: 480 }],
  ])('fits %ix%i within 1280 px', (w, h, expected) => expect(fitWithin(w, h)).toEqual(expected));
});

it('asks for exactly the configured camera at the scanning size', () => {
  expect(cameraConstraints({ deviceId: 'cam-1', kind: 'videoinput', label: 'Back' })).toEqual({
    audio: false,
    video: { deviceId: { exact: 'cam-1' }, width: { ideal: 640 }, height: { ideal: 480 } },
  });
});
