import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PNG } from 'pngjs';
import { MEDIA_MAX_BYTES } from '@floorhand/contract/api';
import { ERR } from '@floorhand/contract/errors';
import { media } from '../../db/schema.ts';
import { ACME, ACME_BASE, call, createAcme, createTestApp, DEMO_BASE, type TestApp } from '../../test/harness.ts';
import { acmeAdminToken, tokenFor } from '../../test/logins.ts';
import { imageInfo } from './service.ts';

function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(200);
  return PNG.sync.write(image);
}
/** Header-valid JPEG: SOI, an APP0 segment, then SOF0 with the size. The server never decodes pixels. */
function jpeg(width: number, height: number): Buffer {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof0 = [0xff, 0xc0, 0x00, 0x0b, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0];
  return Buffer.from([0xff, 0xd8, ...app0, ...sof0, 0xff, 0xd9]);
}
/** Extended WebP (VP8X) header with the canvas size. */
function webp(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBPVP8X', 8, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

let t: TestApp;
let clerk: string;
let acmeAdmin: string;
beforeAll(async () => {
  t = await createTestApp();
  await createAcme(t.db);
  clerk = await tokenFor(t.app, 'clerk');
  acmeAdmin = await acmeAdminToken(t.app);
});
afterAll(() => t?.close());

const upload = (body: Record<string, unknown>, token: string | null = clerk, base: Record<string, string> = DEMO_BASE) =>
  call(t.app, 'media/upload', { ...base, ...body }, token ?? undefined);
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
/** A photo is only for a token of its organisation. */
const getAs = (url: string, token: string) => get(url, { authorization: `Bearer ${token}` });

describe('imageInfo', () => {
  it.each([
    ['image/png', png(3, 2)],
    ['image/jpeg', jpeg(3, 2)],
    ['image/webp', webp(3, 2)],
  ])('reads %s type and size from the header', (type, bytes) => {
    expect(imageInfo(bytes)).toEqual({ type, width: 3, height: 2 });
  });

  it.each([
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['a truncated PNG', png(3, 2).subarray(0, 20)],
    ['nothing', Buffer.alloc(0)],
  ])('refuses %s', (_, bytes) => expect(imageInfo(bytes)).toBeNull());
});

describe('media/upload', () => {
  it.each([
    ['image/png', png(40, 30)],
    ['image/jpeg', jpeg(1280, 960)],
    ['image/webp', webp(64, 48)],
  ])('stores a %s picture with the org and site of the token, and media/pic serves it', async (type, bytes) => {
    // The body's ids must match the token; the stored ids come from the token.
    const res = await upload({ dataUrl: dataUrl(type, bytes) });
    expect(res.status).toBe(200);
    const mediaId = res.body.mediaId!;
    expect(mediaId).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await t.db.select().from(media).where(eq(media.id, mediaId));
    expect(row).toMatchObject({ orgId: DEMO_BASE.orgId, siteId: DEMO_BASE.siteId, contentType: type, purpose: 'photo' });
    expect(row?.audit.create.user).toBeTruthy();

    const pic = await getAs(`/api/media/pic/${DEMO_BASE.orgId}/${mediaId}`, clerk);
    expect(pic.statusCode).toBe(200);
    expect(pic.headers['content-type']).toBe(type);
    expect(pic.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(pic.headers['x-content-type-options']).toBe('nosniff');
    expect(pic.rawPayload.equals(bytes)).toBe(true);
  });

  it('serves a logo to anyone with a public cache header, and answers 304 to its etag', async () => {
    const { body } = await upload({ dataUrl: dataUrl('image/png', png(8, 8)), purpose: 'logo' });
    const url = `/api/media/pic/${DEMO_BASE.orgId}/${body.mediaId}`;
    const pic = await get(url);
    expect(pic.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await get(url, { 'if-none-match': String(pic.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('takes a picture of almost 2 MB, over the app-wide 1 MB body limit', async () => {
    const big = Buffer.concat([png(1, 1), Buffer.alloc(MEDIA_MAX_BYTES - 200, 7)]);
    const res = await upload({ dataUrl: dataUrl('image/png', big) });
    expect(res.status).toBe(200);
    const pic = await getAs(`/api/media/pic/${DEMO_BASE.orgId}/${res.body.mediaId}`, clerk);
    expect(pic.rawPayload.length).toBe(big.length);
  });

  it('needs a login', async () => {
    const res = await upload({ dataUrl: dataUrl('image/png', png(2, 2)) }, null);
    expect(res.status).toBe(401);
    expect(res.body.err?.code).toBe(ERR.unauthorized);
  });

  it('refuses a body naming another organisation than the token', async () => {
    const res = await upload({ dataUrl: dataUrl('image/png', png(2, 2)) }, clerk, ACME_BASE);
    expect(res.status).toBe(403);
    expect(res.body.err?.code).toBe(ERR.orgMismatch);
  });

  it.each([
    ['a GIF', dataUrl('image/gif', Buffer.from('GIF89a')), 'dataUrl'],
    ['an SVG', dataUrl('image/svg+xml', Buffer.from('<svg/>')), 'dataUrl'],
    ['no data URL', 'https://example.com/a.png', 'dataUrl'],
    ['broken base64', 'data:image/png;base64,@@@', 'dataUrl'],
    ['JPEG bytes sent as PNG', dataUrl('image/png', jpeg(2, 2)), 'image/jpeg picture, not image/png'],
    ['bytes of no picture', dataUrl('image/webp', Buffer.from('hello world, not a picture')), 'not a image/webp picture'],
  ])('refuses %s with 400 ERR_BAD_INPUT', async (_, url, words) => {
    const res = await upload({ dataUrl: url });
    expect(res.status).toBe(400);
    expect(res.body.err).toMatchObject({ code: ERR.badInput, message: expect.stringContaining(words) });
  });

  it('refuses a purpose it does not know', async () => {
    const res = await upload({ dataUrl: dataUrl('image/png', png(2, 2)), purpose: 'avatar' });
    expect(res.status).toBe(400);
    expect(res.body.err?.message).toContain('purpose');
  });

  it('refuses a picture over 2 MB with the error shape', async () => {
    const res = await upload({ dataUrl: dataUrl('image/png', Buffer.concat([png(1, 1), Buffer.alloc(MEDIA_MAX_BYTES, 7)])) });
    expect(res.status).toBe(400);
    expect(res.body.err).toMatchObject({ code: ERR.badInput, message: expect.stringContaining('2 MB') });
  });

  it('refuses a body over the upload limit with 413 and the error shape', async () => {
    const res = await upload({ dataUrl: `data:image/png;base64,${'A'.repeat(3.2 * 1024 * 1024)}` });
    expect(res.status).toBe(413);
    expect(res.body.err?.code).toBe(ERR.badInput);
  });
});

describe('media/pic', () => {
  let demoPic: string;
  let acmePic: string;
  beforeAll(async () => {
    demoPic = (await upload({ dataUrl: dataUrl('image/png', png(16, 16)), purpose: 'icon' })).body.mediaId!;
    acmePic = (await upload({ dataUrl: dataUrl('image/png', png(16, 16)) }, acmeAdmin, ACME_BASE)).body.mediaId!;
  });

  it('answers 404 for a media id of another organisation, and serves it under its own', async () => {
    const wrong = await get(`/api/media/pic/${DEMO_BASE.orgId}/${acmePic}`);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().err).toMatchObject({ code: ERR.notFound, message: 'No such picture' });
    expect((await getAs(`/api/media/pic/${ACME.orgId}/${acmePic}`, acmeAdmin)).statusCode).toBe(200);
    expect((await get(`/api/media/pic/${ACME.orgId}/${demoPic}`)).statusCode).toBe(404);
  });

  it('serves a photo only with a token of its own organisation; logos and icons to anyone', async () => {
    const url = `/api/media/pic/${ACME.orgId}/${acmePic}`;
    const anonymous = await get(url);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().err).toMatchObject({ code: ERR.unauthorized, message: expect.any(String) });
    expect((await get(url, { authorization: 'Bearer not-a-token' })).statusCode).toBeGreaterThanOrEqual(400);
    const otherOrg = await getAs(url, clerk);
    expect(otherOrg.statusCode).toBe(404);
    expect(otherOrg.json().err.message).toBe('No such picture');
    expect((await getAs(url, acmeAdmin)).statusCode).toBe(200);
    expect((await get(`/api/media/pic/${DEMO_BASE.siteId}/${DEMO_BASE.orgId}/${demoPic}/32`)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown media id', async () => {
    const res = await get(`/api/media/pic/${DEMO_BASE.orgId}/00000000-0000-4000-8000-000000000000`);
    expect(res.statusCode).toBe(404);
    expect(res.json().err.code).toBe(ERR.notFound);
  });

  it('serves an icon by site, org, media id and size; another site or org is 404', async () => {
    const ok = await get(`/api/media/pic/${DEMO_BASE.siteId}/${DEMO_BASE.orgId}/${demoPic}/32`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('image/png');
    expect((await get(`/api/media/pic/${DEMO_BASE.siteId}/${DEMO_BASE.orgId}/${demoPic}/32x32`)).statusCode).toBe(200);
    expect((await get(`/api/media/pic/${ACME.siteId}/${DEMO_BASE.orgId}/${demoPic}/32`)).statusCode).toBe(404);
    expect((await get(`/api/media/pic/${DEMO_BASE.siteId}/${ACME.orgId}/${demoPic}/32`)).statusCode).toBe(404);
  });

  it.each([
    ['a media id with a dot', `/api/media/pic/demo/bad.id`, 'mediaId'],
    ['a media id of 41 characters', `/api/media/pic/demo/${'a'.repeat(41)}`, 'mediaId'],
    ['an org id starting with -', `/api/media/pic/-demo/abc`, 'orgId'],
    ['an encoded path', `/api/media/pic/demo/..%2F..%2Fetc`, 'mediaId'],
    ['an icon size that is no size', `/api/media/pic/demo-main/demo/abc/big`, 'size'],
  ])('refuses %s with 400 and the error shape', async (_, url, field) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json().err).toMatchObject({ code: ERR.badInput, message: expect.stringContaining(field) });
  });
});
