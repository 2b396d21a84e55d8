import { FAVICON_SIZES } from '@floorhand/contract/constants';
import { MEDIA_MAX_BYTES } from '@floorhand/contract/api';
import { SCREEN_SAVER_LOGO } from '@floorhand/contract/constants';
import { call } from '../../../lib/api.ts';

// Brand pictures are redrawn in the browser before upload: any picture the browser can show (SVG
// too) becomes a PNG of a sensible size, so media/upload only ever gets small PNGs.

/** The logo is kept at up to four times its screen-saver size (sharp on high-density screens). */
export const LOGO_MAX = { width: SCREEN_SAVER_LOGO.width * 4, height: SCREEN_SAVER_LOGO.height * 4 };

export function loadImage(file: Blob): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('The file is not a picture this browser can read'));
    };
    img.src = url;
  });
}

/** Draws the picture contained in a box, aspect kept, as a PNG data URL: a logo is never enlarged, an icon fills its square. */
export function toPng(img: HTMLImageElement, box: { width: number; height: number }, opts: { square?: boolean } = {}): string {
  const w = img.naturalWidth || box.width;
  const h = img.naturalHeight || box.height;
  const scale = Math.min(box.width / w, box.height / h, opts.square ? Infinity : 1);
  const dw = Math.max(1, Math.round(w * scale));
  const dh = Math.max(1, Math.round(h * scale));
  const canvas = document.createElement('canvas');
  canvas.width = opts.square ? box.width : dw;
  canvas.height = opts.square ? box.height : dh;
  const ctx = canvas.getContext('2d')!;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, (canvas.width - dw) / 2, (canvas.height - dh) / 2, dw, dh);
  return canvas.toDataURL('image/png');
}

async function upload(dataUrl: string, purpose: 'logo' | 'icon'): Promise<string> {
  if ((dataUrl.length * 3) / 4 > MEDIA_MAX_BYTES) throw new Error('The picture is too large');
  const res = await call('media/upload', { dataUrl, purpose });
  if (!res.mediaId) throw new Error('The picture was not stored');
  return res.mediaId;
}

export async function uploadLogo(file: Blob): Promise<string> {
  return upload(toPng(await loadImage(file), LOGO_MAX), 'logo');
}

/** One square PNG per favicon size; answers the brand's favIcon map. */
export async function uploadFavicons(file: Blob): Promise<Record<string, { mediaId: string }>> {
  const img = await loadImage(file);
  const out: Record<string, { mediaId: string }> = {};
  for (const size of FAVICON_SIZES)
    out[String(size)] = { mediaId: await upload(toPng(img, { width: size, height: size }, { square: true }), 'icon') };
  return out;
}
