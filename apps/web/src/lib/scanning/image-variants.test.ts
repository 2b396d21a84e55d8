import { describe, expect, it } from 'vitest';
import type { RgbaImage } from './decoder.ts';
import { seededRandom } from '@floorhand/contract/random';
import { addNoise, boxBlur, rotate, rotate90, scale } from './image-variants.ts';

/** A grey image whose value at (x, y) is given; alpha opaque. */
function grey(width: number, height: number, value: (x: number, y: number) => number): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set([value(x, y), value(x, y), value(x, y), 255], (y * width + x) * 4);
  return { width, height, data };
}
const at = (image: RgbaImage, x: number, y: number) => image.data[(y * image.width + x) * 4]!;
const checker = grey(6, 4, (x, y) => (x + 2 * y) * 10);

describe('image variants', () => {
  it('turns a quarter clockwise, and four turns are the identity', () => {
    const turned = rotate90(checker);
    expect([turned.width, turned.height]).toEqual([4, 6]);
    expect(at(turned, 3, 0)).toBe(at(checker, 0, 0));
    expect(at(turned, 0, 0)).toBe(at(checker, 0, 3));
    expect(rotate90(rotate90(rotate90(turned)))).toEqual(checker);
  });

  it('rotates by any angle on a white, padded canvas that holds the whole image', () => {
    expect(rotate(checker, 0)).toEqual(checker);
    const quarter = rotate(checker, 90);
    expect([quarter.width, quarter.height]).toEqual([4, 6]);
    expect(quarter.data).toEqual(rotate90(checker).data);
    const tilted = rotate(
      grey(40, 20, () => 0),
      15,
      5,
    );
    expect(tilted.width).toBe(Math.ceil(40 * Math.cos(Math.PI / 12) + 20 * Math.sin(Math.PI / 12)) + 10);
    expect(at(tilted, 0, 0)).toBe(255);
    expect(at(tilted, tilted.width >> 1, tilted.height >> 1)).toBe(0);
  });

  it('halves by averaging 2x2 blocks', () => {
    const half = scale(
      grey(4, 2, (x) => (x % 2 ? 200 : 100)),
      0.5,
    );
    expect([half.width, half.height]).toEqual([2, 1]);
    expect(at(half, 0, 0)).toBe(150);
  });

  it('blurs an edge and leaves flat areas alone', () => {
    const edge = boxBlur(
      grey(6, 3, (x) => (x < 3 ? 0 : 255)),
      1,
    );
    expect([0, 1, 2, 3, 4, 5].map((x) => at(edge, x, 1))).toEqual([0, 0, 85, 170, 255, 255]);
  });

  it('adds bounded noise that is the same for the same seed', () => {
    const flat = grey(50, 50, () => 128);
    const a = addNoise(flat, 40, 7);
    expect(a).toEqual(addNoise(flat, 40, 7));
    expect(a).not.toEqual(addNoise(flat, 40, 8));
    const values = Array.from({ length: 2500 }, (_, i) => a.data[i * 4]!);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(88);
    expect(Math.max(...values)).toBeLessThanOrEqual(168);
    expect(a.data[3]).toBe(255);
  });

  it('draws seeded numbers in [0, 1)', () => {
    const random = seededRandom(1);
    const draws = Array.from({ length: 1000 }, random);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
  });
});
