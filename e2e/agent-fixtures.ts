import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, type Agent } from '../apps/print-agent/src/agent.ts';
import { parseConfig } from '../apps/print-agent/src/config.ts';

// The print agent of the label specs: the real one, in this process, dialling out to the e2e server.

/** The e2e server's address (playwright.config.ts starts it on E2E_PORT). */
export const E2E_SERVER = `http://localhost:${Number(process.env.E2E_PORT ?? 4180)}`;

export interface TestAgentOptions {
  siteId: string;
  agentKey: string;
  agentId: string;
  name: string;
  /** Its one printer, a loopback listener (apps/print-agent/src/test-printer.ts) on this port. */
  printer: { id: string; name: string; port: number };
}

/** An agent (not started) with its own queue file, quick retries and status every 2 s, so tests need not wait. */
export function testAgent({ siteId, agentKey, agentId, name, printer }: TestAgentOptions): Agent {
  return createAgent(
    parseConfig({
      server: E2E_SERVER,
      siteId,
      agentKey,
      agentId,
      name,
      queueFile: join(mkdtempSync(join(tmpdir(), `fh-e2e-${agentId}-`)), 'queue.json'),
      retryMs: 300,
      statusIntervalMs: 2000,
      printers: [{ ...printer, host: '127.0.0.1' }],
    }),
  );
}
