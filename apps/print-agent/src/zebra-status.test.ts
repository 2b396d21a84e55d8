import { describe, expect, it } from 'vitest';
import { withCopies } from '@floorhand/contract/labels';
import { hostStatusAnswer, parseHostStatus } from './zebra-status.ts';
import { parseConfig } from './config.ts';

describe('~HS answers', () => {
  it.each([
    [{}, 'online', undefined],
    [{ paperOut: true }, 'paperOut', 'paper out'],
    [{ paused: true }, 'paused', 'paused'],
    [{ headOpen: true }, 'headOpen', 'head open'],
    [{ ribbonOut: true }, 'ribbonOut', 'ribbon out'],
    [{ paperOut: true, paused: true }, 'paperOut', 'paper out, paused'],
  ] as const)('%j reads as %s', (flags, state, detail) => {
    expect(parseHostStatus(hostStatusAnswer(flags))).toEqual({
      state,
      ...(detail ? { detail } : {}),
      formatsInBuffer: 0,
      labelsRemaining: 0,
    });
  });

  it('reads a real printer answer (ZT410, paused, head closed)', () => {
    const answer = '\x02030,0,1,0812,000,0,0,0,000,0,0,0\x03\r\n\x02000,0,0,0,1,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n';
    expect(parseHostStatus(answer)).toEqual({ state: 'paused', detail: 'paused', formatsInBuffer: 0, labelsRemaining: 0 });
  });

  it('reads the formats in the receive buffer (line 1, eee) and the labels remaining in the batch (line 2, uuuuuuuu)', () => {
    const answer = '\x02030,1,0,0812,002,0,0,0,000,0,0,0\x03\r\n\x02000,0,0,0,1,2,6,0,00000015,1,000\x03\r\n\x021234,0\x03\r\n';
    expect(parseHostStatus(answer)).toEqual({ state: 'paperOut', detail: 'paper out', formatsInBuffer: 2, labelsRemaining: 15 });
    expect(parseHostStatus(hostStatusAnswer({}, { formatsInBuffer: 3, labelsRemaining: 19 }))).toMatchObject({
      formatsInBuffer: 3,
      labelsRemaining: 19,
    });
    // Counters not numbers: none read (the job is then "printed" as sent, docs/labels.md).
    expect(parseHostStatus('\x02030,0,0,0812,abc,0,0,0,000,0,0,0\x03\x02000,0,0,0,1,2,6,0,zz,1,000\x03')).toEqual({ state: 'online' });
  });

  it('says unknown for anything else', () => {
    expect(parseHostStatus('garbage').state).toBe('unknown');
    expect(parseHostStatus('').state).toBe('unknown');
  });
});

describe('copies by ^PQ', () => {
  it('puts ^PQ before every ^XZ and replaces one already there', () => {
    expect(withCopies('^XA^FDa^FS^XZ\n^XA^FDb^FS^PQ5,0,0,N^XZ', 2)).toBe('^XA^FDa^FS^PQ2^XZ\n^XA^FDb^FS^PQ2^XZ');
  });
});

describe('config', () => {
  const base = {
    server: 'https://floor.example.com/',
    siteId: 'main',
    agentKey: 'agk_abc',
    agentId: 'dock-1',
    printers: [{ id: 'zebra', host: '10.0.0.5' }],
  };
  it('fills defaults: port 9100, name, queue file beside the config', () => {
    const c = parseConfig(base, '/etc/fh');
    expect(c).toMatchObject({
      server: 'https://floor.example.com',
      name: 'dock-1',
      queueFile: '/etc/fh/print-agent-dock-1.queue.json',
      retryMs: 5000,
    });
    expect(c.printers[0]).toEqual({ id: 'zebra', name: 'zebra', host: '10.0.0.5', port: 9100 });
  });
  it('reads the key from the environment, and refuses what cannot work', () => {
    expect(parseConfig({ ...base, agentKey: undefined, agentKeyEnv: 'FH_KEY' }, '/', { FH_KEY: 'agk_x_y' }).agentKey).toBe('agk_x_y');
    // An old config's apiKey/apiKeyEnv are still read, so the server can tell the operator what to do.
    expect(parseConfig({ ...base, agentKey: undefined, apiKey: 'fhk_old' }).agentKey).toBe('fhk_old');
    expect(parseConfig({ ...base, agentKey: undefined, apiKeyEnv: 'FH_KEY' }, '/', { FH_KEY: 'fhk_x_y' }).agentKey).toBe('fhk_x_y');
    expect(() => parseConfig({ ...base, agentKey: undefined })).toThrow('"agentKey"');
    expect(() => parseConfig({ ...base, printers: [] })).toThrow('at least one printer');
    expect(() => parseConfig({ ...base, printers: [{ id: 'p' }] })).toThrow('"host"');
    expect(() => parseConfig({ ...base, agentId: 'a b' })).toThrow('agentId');
  });
});
