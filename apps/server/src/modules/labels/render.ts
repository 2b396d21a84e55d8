import { badInput } from '../../lib/errors.ts';
import { DPMM_OF_DPI } from '@floorhand/contract/labels';

// ZPL → PNG on the server with zpl-renderer-js (a WebAssembly build of the zebrash renderer), loaded on
// the first preview so the server starts without it and the web app never carries it
// (docs/decisions.md). A label renders in 10 to 100 ms once warm.

type ZplApi = { zplToBase64MultipleAsync(zpl: string, widthMm?: number, heightMm?: number, dpmm?: number): Promise<string[]> };
let api: Promise<ZplApi> | undefined;

function renderer(): Promise<ZplApi> {
  api ??= import('zpl-renderer-js').then(async (m) => (await m.ready).api);
  return api;
}

/** Renders a ZPL document: one PNG (base64) per label, or a bad-input error saying why it does not render. */
export async function renderZpl(zpl: string, widthMm: number, heightMm: number, dpi: number): Promise<string[]> {
  const dpmm = DPMM_OF_DPI.get(dpi) ?? 8;
  const zplApi = await renderer();
  let pngs: string[];
  try {
    pngs = await zplApi.zplToBase64MultipleAsync(zpl, widthMm, heightMm, dpmm);
  } catch (e) {
    throw badInput(`The ZPL does not render: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!pngs.length || pngs.some((p) => !p)) throw badInput('The ZPL does not render: no label in it');
  return pngs;
}
