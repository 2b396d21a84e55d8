import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { offlinePunchKeyFromHash, offlinePunchText, verifyOfflinePunch } from '@floorhand/contract/offline-punch';
import { timeclockCalls } from '@floorhand/contract/timeclock';
import { useMachineStore } from '../../../lib/machine-store.ts';
import { photoSha256OfDataUrl, signOfflinePunchHere } from './offline-punch.ts';

const secret = 'device-secret-of-this-clock-0123456789abcdef';
const workstation = { id: 'WS0042', timeclockOnly: true, kioskOnly: false, secret };
const serverKey = () => offlinePunchKeyFromHash(createHash('sha256').update(secret, 'utf8').digest('hex'));

describe('signing a punch made offline', () => {
  it("signs with the machine settings' secret what the server verifies with the hash it stores", async () => {
    const deviceTime = new Date('2026-11-28T06:59:58.120Z');
    const signed = await signOfflinePunchHere({ badge: 'B-ANNA', idempotencyKey: 'punch-key-0001', deviceTime }, workstation);
    expect(signed).toMatchObject({
      idempotencyKey: 'punch-key-0001',
      clientTime: deviceTime.toISOString(),
      offline: { deviceTime: deviceTime.toISOString() },
    });
    const fields = { workstationId: 'WS0042', badge: 'B-ANNA', deviceTime: deviceTime.toISOString(), idempotencyKey: 'punch-key-0001' };
    expect(await verifyOfflinePunch((await serverKey())!, fields, signed!.offline.signature)).toBe(true);
    expect(await verifyOfflinePunch((await serverKey())!, { ...fields, workstationId: 'WS0001' }, signed!.offline.signature)).toBe(false);
    // What it adds is a valid part of the punch call.
    const body = timeclockCalls['timeclock/punch'].body.safeParse({ siteId: 's', appId: 'a', orgId: 'o', badge: 'B-ANNA', ...signed });
    expect(body.success, JSON.stringify(body.error)).toBe(true);
  });

  it('binds the photo by the SHA-256 of its bytes, as the server hashes the upload', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 250]);
    const dataUrl = `data:image/jpeg;base64,${bytes.toString('base64')}`;
    const digest = createHash('sha256').update(bytes).digest('hex');
    expect(await photoSha256OfDataUrl(dataUrl)).toBe(digest);
    const deviceTime = new Date('2026-11-28T07:00:00.000Z');
    const signed = await signOfflinePunchHere(
      { badge: 'B-ANNA', idempotencyKey: 'punch-key-0002', deviceTime, photoDataUrl: dataUrl },
      workstation,
    );
    const text = offlinePunchText({
      workstationId: 'WS0042',
      badge: 'B-ANNA',
      deviceTime: deviceTime.toISOString(),
      idempotencyKey: 'punch-key-0002',
      photoSha256: digest,
    });
    expect(signed!.offline.signature).toBe(
      createHmac('sha256', createHash('sha256').update(secret).digest()).update(text).digest('base64url'),
    );
  });

  it('a device without a secret signs nothing (not an authorised clock); by default the machine settings are read', async () => {
    expect(
      await signOfflinePunchHere({ badge: 'B-ANNA', idempotencyKey: 'punch-key-0003' }, { ...workstation, secret: undefined }),
    ).toBeUndefined();
    useMachineStore.getState().save({ workstation });
    const now = Date.now();
    const signed = await signOfflinePunchHere({ badge: 'B-ANNA', idempotencyKey: 'punch-key-0004' });
    expect(Math.abs(Date.parse(signed!.offline.deviceTime) - now)).toBeLessThan(5000);
  });
});
