import { call } from '../../../lib/api.ts';

/** A package's packing list: a PDF answered in JSON (base64) with its file name. */
export const getPackingList = (packageId: string) => call('package/packingList', { packageId });
