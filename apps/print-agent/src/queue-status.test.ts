import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLpstat, queueStatus } from './queue-status.ts';
import { queryStatus, sendFormats } from './printer.ts';

// Local raw queues: their state from lpstat (CUPS 2's words), and what happens without lpstat.

describe('lpstat answers', () => {
  it.each([
    [
      'printer zebra is idle.  enabled since Tue 25 Nov 2026 09:12:01 AM UTC\nzebra accepting requests since Tue 25 Nov 2026 09:12:01 AM UTC\n',
      'online',
      'raw queue zebra',
    ],
    [
      'printer zebra now printing zebra-41.  enabled since Tue 25 Nov 2026 09:12:01 AM UTC\nzebra accepting requests since Tue 25 Nov 2026\n',
      'online',
      'raw queue zebra printing',
    ],
    [
      'printer zebra disabled since Tue 25 Nov 2026 09:14:22 AM UTC -\n\tPaused by the dock lead\nzebra accepting requests since Tue 25 Nov 2026\n',
      'paused',
      'raw queue zebra disabled: Paused by the dock lead',
    ],
    [
      'printer zebra disabled since Tue 25 Nov 2026 09:14:22 AM UTC -\n\tUnable to connect to printer; will retry in 30 seconds...\n',
      'paused',
      'raw queue zebra disabled: Unable to connect to printer; will retry in 30 seconds...',
    ],
    [
      'printer zebra is idle.  enabled since Tue 25 Nov 2026\nzebra not accepting requests since Tue 25 Nov 2026 -\n\tRejecting Jobs\n',
      'paused',
      'raw queue zebra is not accepting jobs',
    ],
  ] as const)('%j reads as %s', (stdout, state, detail) => {
    expect(parseLpstat('zebra', stdout)).toEqual({ state, detail });
  });

  it('an unknown queue is unreachable with lpstat’s words', () => {
    expect(parseLpstat('nope', '', 'lpstat: Invalid destination name in list "nope".\n', 1)).toEqual({
      state: 'unreachable',
      detail: 'raw queue nope: lpstat: Invalid destination name in list "nope".',
    });
  });

  it('a queue named like a prefix of another is not mistaken for it', () => {
    expect(parseLpstat('zeb', 'printer zebra is idle.  enabled since Tue\n').state).toBe('unknown');
  });
});

describe('a raw queue through lp and lpstat', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fh-lpstat-'));
  const script = (name: string, body: string) => {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };

  it('asks lpstat -p and -a about the queue', async () => {
    const lpstat = script(
      'lpstat-disabled',
      `echo "$@" > ${join(dir, 'args')}\nprintf 'printer dock disabled since Tue -\\n\\tPaper jam\\n'`,
    );
    expect(await queueStatus('dock', lpstat)).toEqual({ state: 'paused', detail: 'raw queue dock disabled: Paper jam' });
    expect(readFileSync(join(dir, 'args'), 'utf8').trim()).toBe('-p dock -a dock');
    const failing = script('lpstat-unknown', `echo 'lpstat: Invalid destination name in list "dock".' >&2\nexit 1`);
    expect(await queueStatus('dock', failing)).toMatchObject({ state: 'unreachable' });
  });

  it('without lpstat the queue is taken as online, and says its state is not known', async () => {
    expect(await queryStatus({ id: 'q', name: 'Q', queue: 'dock', lpstat: join(dir, 'no-such-lpstat') })).toEqual({
      state: 'online',
      detail: 'raw queue dock (no lpstat here: state not known)',
    });
  });

  it('sends a job whole to lp -d <queue> -o raw', async () => {
    const lp = script('lp', `echo "$@" > ${join(dir, 'lp-args')}\ncat > ${join(dir, 'lp-data')}`);
    const flushed: number[] = [];
    await sendFormats({ id: 'q', name: 'Q', queue: 'dock', lp }, ['^XA^FDone^FS^XZ', '\n^XA^FDtwo^FS^XZ'], (n) => flushed.push(n));
    expect(readFileSync(join(dir, 'lp-args'), 'utf8').trim()).toBe('-d dock -o raw');
    expect(readFileSync(join(dir, 'lp-data'), 'utf8')).toBe('^XA^FDone^FS^XZ\n^XA^FDtwo^FS^XZ');
    expect(flushed).toEqual([2]);
  });
});
