import { MEDIA_MAX_BYTES, MEDIA_TYPES, type CallArgs, type CallResponse } from '@floorhand/contract/api';
import { badInput, notFound } from '../../lib/errors.ts';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { auditStamp, newId } from '../../lib/audit.ts';
import type { Deps } from '../../lib/calls.ts';
import { insertMedia, pictureById } from './repository.ts';

export type MediaType = (typeof MEDIA_TYPES)[number];
export type ImageInfo = { type: MediaType; width: number; height: number };

const ascii = (bytes: Buffer, at: number, text: string) => bytes.toString('latin1', at, at + text.length) === text;

function pngInfo(b: Buffer): ImageInfo | null {
  if (b.length < 24 || !b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) || !ascii(b, 12, 'IHDR'))
    return null;
  return { type: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function jpegInfo(b: Buffer): ImageInfo | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  // Walk the marker segments to the first start-of-frame (SOF0-15 less DHT C4, JPG C8, DAC CC).
  for (let i = 2; i + 9 < b.length;) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) i += 1;
    else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) i += 2;
    else if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { type: 'image/jpeg', height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    else i += 2 + b.readUInt16BE(i + 2);
  }
  return null;
}

function webpInfo(b: Buffer): ImageInfo | null {
  if (b.length < 30 || !ascii(b, 0, 'RIFF') || !ascii(b, 8, 'WEBP')) return null;
  const size = (width: number, height: number): ImageInfo => ({ type: 'image/webp', width, height });
  if (ascii(b, 12, 'VP8X')) return size(1 + b.readUIntLE(24, 3), 1 + b.readUIntLE(27, 3));
  if (ascii(b, 12, 'VP8 ') && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return size(b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  if (ascii(b, 12, 'VP8L') && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return size((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  return null;
}

/** Type and pixel size read from the image's own header; null when the bytes are no PNG, JPEG or WebP. */
export function imageInfo(bytes: Buffer): ImageInfo | null {
  const info = pngInfo(bytes) ?? jpegInfo(bytes) ?? webpInfo(bytes);
  return info && info.width > 0 && info.height > 0 ? info : null;
}

/**
 * Stores an uploaded picture for the caller's organisation and site (from the token, never the
 * body). The bytes must be the image type the data URL claims: a browser shown a mislabelled file
 * could sniff it as something else.
 */
export async function uploadMedia(deps: Deps, auth: AuthContext, body: CallArgs<'media/upload'>): Promise<CallResponse<'media/upload'>> {
  const comma = body.dataUrl.indexOf(',');
  const declared = body.dataUrl.slice(5, body.dataUrl.indexOf(';'));
  const bytes = Buffer.from(body.dataUrl.slice(comma + 1), 'base64');
  if (bytes.length > MEDIA_MAX_BYTES) throw badInput(`The picture is larger than ${MEDIA_MAX_BYTES / 1024 / 1024} MB`);
  const info = imageInfo(bytes);
  if (!info) throw badInput(`The data is not a ${declared} picture`);
  if (info.type !== declared) throw badInput(`The data is a ${info.type} picture, not ${declared}`);
  const id = newId();
  await insertMedia(deps.db, {
    id,
    orgId: auth.orgId,
    siteId: auth.siteId,
    contentType: info.type,
    bytes,
    width: info.width,
    height: info.height,
    purpose: body.purpose ?? 'photo',
    audit: auditStamp(auth.accountId),
  });
  return { mediaId: id };
}

export type StoredPicture = { id: string; contentType: string; bytes: Buffer; purpose: string };

/**
 * A picture of this organisation (and site, for the icon form). Another organisation's media id
 * is 404 like an unknown one, so ids cannot be probed across organisations.
 */
export async function findPicture(db: Db, where: { orgId: string; mediaId: string; siteId?: string }): Promise<StoredPicture> {
  const row = await pictureById(db, where.orgId, where.mediaId);
  if (!row || (where.siteId !== undefined && row.siteId !== null && row.siteId !== where.siteId)) {
    throw notFound('No such picture');
  }
  return row;
}
