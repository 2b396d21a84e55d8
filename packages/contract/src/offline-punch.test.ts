import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  offlinePunchKeyFromHash,
  offlinePunchKeyFromSecret,
  offlinePunchText,
  sha256Hex,
  signOfflinePunch,
  verifyOfflinePunch,
  type OfflinePunchFields,
} from './offline-punch.ts';
import { timeclockCalls } from './timeclock.ts';

const secret = 'x7Qm2v9kP0aZ3bT6nW1cR8dY5eU4fH2jL9sV0gK3oIq';
const fields: OfflinePunchFields = {
  workstationId: 'WS0001',
  badge: 'B-WORKER1',
  deviceTime: '2026-11-28T08:01:02.345Z',
  idempotencyKey: 'punch-0001-abcd',
  photoSha256: 'ab'.repeat(32),
};

describe('offline punch signature', () => {
  it('signs with the secret and verifies with the hash the server stores (the same HMAC key)', async () => {
    const sig = await signOfflinePunch(secret, fields);
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = createHash('sha256').update(secret, 'utf8').digest('hex');
    const key = await offlinePunchKeyFromHash(stored);
    expect(await verifyOfflinePunch(key!, fields, sig)).toBe(true);
    expect(await verifyOfflinePunch(secret, fields, sig)).toBe(true);
    // Node's own HMAC agrees: the key is the raw SHA-256 of the secret, over the canonical text.
    const node = createHmac('sha256', createHash('sha256').update(secret, 'utf8').digest())
      .update(offlinePunchText(fields))
      .digest('base64url');
    expect(sig).toBe(node);
    // The punch request takes the signature.
    expect(timeclockCalls['timeclock/punch'].body.shape.offline.safeParse({ deviceTime: fields.deviceTime, signature: sig }).success).toBe(
      true,
    );
  });

  it('refuses another secret, and any field changed', async () => {
    const sig = await signOfflinePunch(secret, fields);
    expect(await verifyOfflinePunch(`${secret}x`, fields, sig)).toBe(false);
    for (const change of [
      { workstationId: 'WS0002' },
      { badge: 'B-WORKER2' },
      { deviceTime: '2026-11-28T08:01:03.345Z' },
      { idempotencyKey: 'punch-0001-abce' },
      { photoSha256: undefined },
      { photoSha256: 'cd'.repeat(32) },
    ]) {
      expect(await verifyOfflinePunch(secret, { ...fields, ...change }, sig), JSON.stringify(change)).toBe(false);
    }
    // No photo signs as an empty digest, not as a missing field that another could fill.
    const noPhoto = { ...fields, photoSha256: undefined };
    expect(await verifyOfflinePunch(secret, noPhoto, await signOfflinePunch(secret, noPhoto))).toBe(true);
  });

  it('fields never run into each other (a JSON array)', () => {
    expect(offlinePunchText({ ...fields, workstationId: 'WS0001","B' })).not.toBe(
      offlinePunchText({ ...fields, badge: `","B${fields.badge}` }),
    );
  });

  it('junk signatures and hashes answer false or undefined, never throw', async () => {
    expect(await offlinePunchKeyFromHash('not hex')).toBeUndefined();
    expect(await offlinePunchKeyFromHash('abcd')).toBeUndefined();
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), async (junk) => {
        expect(await verifyOfflinePunch(secret, fields, junk)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('sha256Hex of text and bytes', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex(new Uint8Array([97, 98, 99]))).toBe(await sha256Hex('abc'));
    expect(await offlinePunchKeyFromSecret(secret)).toBeDefined();
  });
});
