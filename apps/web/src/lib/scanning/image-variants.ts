// Degraded copies of a clean barcode image, standing in for what a handheld camera sees: the
// decoder tests and the browser benchmark measure read rates on them. Pure RGBA maths, no canvas,
// so they run the same in Node and in a worker.
import type { RgbaImage } from './decoder.ts';
import { seededRandom } from '@floorhand/contract/random';

const WHITE = 255;

function blank(width: number, height: number): RgbaImage {
  return { width, height, data: new Uint8ClampedArray(width * height * 4).fill(WHITE) };
}

/** Bilinear sample of channel c at (x, y); outside the image is white paper. */
function sample(image: RgbaImage, x: number, y: number, c: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const at = (px: number, py: number) =>
    px < 0 || py < 0 || px >= image.width || py >= image.height ? WHITE : image.data[(py * image.width + px) * 4 + c]!;
  const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
  const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** Exact quarter turn clockwise. */
export function rotate90(image: RgbaImage): RgbaImage {
  const out = blank(image.height, image.width);
  for (let y = 0; y < out.height; y++) {
    for (let x = 0; x < out.width; x++) {
      const from = ((image.height - 1 - x) * image.width + y) * 4;
      out.data.set(image.data.subarray(from, from + 4), (y * out.width + x) * 4);
    }
  }
  return out;
}

/** Rotation by any angle, bilinear, on a white canvas that holds the whole turned image plus padding. */
export function rotate(image: RgbaImage, degrees: number, padding = 0): RgbaImage {
  const rad = (degrees * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const width = Math.ceil(Math.abs(image.width * cos) + Math.abs(image.height * sin)) + 2 * padding;
  const height = Math.ceil(Math.abs(image.width * sin) + Math.abs(image.height * cos)) + 2 * padding;
  const out = blank(width, height);
  const [scx, scy, dcx, dcy] = [image.width / 2, image.height / 2, width / 2, height / 2];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Inverse mapping: where in the source this output pixel centre came from.
      const dx = x + 0.5 - dcx;
      const dy = y + 0.5 - dcy;
      const sx = dx * cos + dy * sin + scx - 0.5;
      const sy = -dx * sin + dy * cos + scy - 0.5;
      for (let c = 0; c < 4; c++) out.data[(y * width + x) * 4 + c] = sample(image, sx, sy, c);
    }
  }
  return out;
}

/** Bilinear resize by a factor; at 0.5 each output pixel is the mean of a 2x2 block, like a camera farther away. */
export function scale(image: RgbaImage, factor: number): RgbaImage {
  const out = blank(Math.max(1, Math.round(image.width * factor)), Math.max(1, Math.round(image.height * factor)));
  for (let y = 0; y < out.height; y++) {
    for (let x = 0; x < out.width; x++) {
      const sx = (x + 0.5) / factor - 0.5;
      const sy = (y + 0.5) / factor - 0.5;
      for (let c = 0; c < 4; c++) out.data[(y * out.width + x) * 4 + c] = sample(image, sx, sy, c);
    }
  }
  return out;
}

/** Separable box blur with a (2 * radius + 1) window, edges clamped: out-of-focus optics. */
export function boxBlur(image: RgbaImage, radius: number): RgbaImage {
  const pass = (src: RgbaImage, horizontal: boolean): RgbaImage => {
    const out = blank(src.width, src.height);
    const [w, h] = [src.width, src.height];
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        for (let c = 0; c < 4; c++) {
          let sum = 0;
          for (let k = -radius; k <= radius; k++) {
            const px = horizontal ? Math.min(w - 1, Math.max(0, x + k)) : x;
            const py = horizontal ? y : Math.min(h - 1, Math.max(0, y + k));
            sum += src.data[(py * w + px) * 4 + c]!;
          }
          out.data[(y * w + x) * 4 + c] = sum / (2 * radius + 1);
        }
      }
    }
    return out;
  };
  return pass(pass(image, true), false);
}

/** Uniform grey sensor noise of up to ±amplitude levels per pixel. */
export function addNoise(image: RgbaImage, amplitude: number, seed: number): RgbaImage {
  const random = seededRandom(seed);
  const out: RgbaImage = { width: image.width, height: image.height, data: new Uint8ClampedArray(image.data) };
  for (let i = 0; i < out.data.length; i += 4) {
    const delta = (random() * 2 - 1) * amplitude;
    for (let c = 0; c < 3; c++) out.data[i + c] = out.data[i + c]! + delta;
  }
  return out;
}
