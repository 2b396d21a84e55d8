import { describe, expect, it } from 'vitest';
import { createScanQueue } from './scan-queue.ts';

describe('scan queue', () => {
  it('handles a burst one at a time, in order, each once, and goes on after a failure', async () => {
    const seen: string[] = [];
    let inFlight = 0;
    let most = 0;
    const queue = createScanQueue(async (text) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight -= 1;
      if (text === 'S5') throw new Error('refused');
      seen.push(text);
    });
    const sent = Array.from({ length: 200 }, (_, i) => `S${i}`);
    for (const s of sent) queue.push(s);
    await new Promise<void>((resolve) => {
      const wait = () => (queue.size() === 0 ? resolve() : setTimeout(wait, 5));
      wait();
    });
    expect(most).toBe(1);
    expect(seen).toEqual(sent.filter((s) => s !== 'S5'));
  });
});
