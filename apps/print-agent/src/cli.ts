import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { createAgent } from './agent.ts';

// `npx floorhand-print-agent --config agent.json` (docs/labels.md).

const { values } = parseArgs({ options: { config: { type: 'string', short: 'c', default: 'print-agent.json' } } });
const config = loadConfig(values.config ?? 'print-agent.json');
const stamp = () => new Date().toISOString();
const agent = createAgent(
  config,
  {
    info: (m) => console.log(`${stamp()} ${m}`),
    warn: (m) => console.warn(`${stamp()} ${m}`),
  },
  {
    // Taken over by a newer copy, or revoked: exit with status 3 (a service manager restarting on
    // failure would only start a copy that is closed again; docs/labels.md).
    onStopped: () => void agent.stop().then(() => process.exit(3)),
  },
);
agent.start();
console.log(
  `${stamp()} print agent ${config.agentId} for ${config.server}/${config.siteId}: ${config.printers.map((p) => p.id).join(', ')}`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void agent.stop().then(() => process.exit(0));
  });
}
