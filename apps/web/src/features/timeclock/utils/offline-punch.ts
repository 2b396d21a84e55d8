import { sha256Hex, signOfflinePunch } from '@floorhand/contract/offline-punch';
import type { OfflinePunch } from '@floorhand/contract/timeclock';
import { useMachineStore, type MachineSettings } from '../../../lib/machine-store.ts';

// Offline punches (docs/timeclock.md, Offline punches): what the clock adds to a punch it could not
// send, so the server records it at the device's time. Sign at the scan (the worker's time, the
// photo as taken); keep the result with the punch in the outbox; on replay upload the photo (the same
// bytes) and send the punch with `photoMediaId`, these fields, and the same idempotency key every time.

export interface OfflinePunchInput {
  /** The badge exactly as the punch sends it. */
  badge: string;
  /** The punch's idempotency key, made once at the scan and kept for every replay. */
  idempotencyKey: string;
  /** The scan's time on this device; now by default. */
  deviceTime?: Date;
  /** The photo taken at the scan (a base64 data URL, as media/upload takes it), if any. */
  photoDataUrl?: string | null | undefined;
}

/** What an offline punch adds to the punch's arguments. */
export interface SignedOfflinePunch {
  idempotencyKey: string;
  /** The device's time again as clientTime (kept beside the server's time, like any punch). */
  clientTime: string;
  offline: OfflinePunch;
}

/** SHA-256 (hex) of a base64 data URL's bytes: what the server hashes of the uploaded picture. */
export async function photoSha256OfDataUrl(dataUrl: string): Promise<string> {
  const bin = atob(dataUrl.slice(dataUrl.indexOf(',') + 1));
  return sha256Hex(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/**
 * Signs a punch made offline with this device's workstation secret (machine settings). Undefined
 * when the device holds no secret: it is not an authorised clock, and the server would refuse the
 * punch, so it must not be queued as one.
 */
export async function signOfflinePunchHere(
  input: OfflinePunchInput,
  workstation: MachineSettings['workstation'] = useMachineStore.getState().workstation,
): Promise<SignedOfflinePunch | undefined> {
  if (!workstation.secret) return undefined;
  const deviceTime = (input.deviceTime ?? new Date()).toISOString();
  const photoSha256 = input.photoDataUrl ? await photoSha256OfDataUrl(input.photoDataUrl) : undefined;
  const signature = await signOfflinePunch(workstation.secret, {
    workstationId: workstation.id,
    badge: input.badge,
    deviceTime,
    idempotencyKey: input.idempotencyKey,
    photoSha256,
  });
  return { idempotencyKey: input.idempotencyKey, clientTime: deviceTime, offline: { deviceTime, signature } };
}
