/**
 * Scans handled one at a time, in the order they came: a wedge burst (a scan every 30 ms) queues here
 * while each scan's call runs, so none is dropped, doubled or handled out of order.
 */
export function createScanQueue(handle: (text: string) => Promise<void>): { push(text: string): void; size(): number } {
  const waiting: string[] = [];
  let running = false;
  async function drain() {
    if (running) return;
    running = true;
    try {
      while (waiting.length > 0) {
        const next = waiting.shift()!;
        try {
          await handle(next);
        } catch {
          // The handler reported it; the next scan goes on.
        }
      }
    } finally {
      running = false;
    }
  }
  return {
    push(text) {
      waiting.push(text);
      void drain();
    },
    size: () => waiting.length + (running ? 1 : 0),
  };
}
