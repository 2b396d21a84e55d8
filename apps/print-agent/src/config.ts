import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

// The agent's configuration file (JSON; docs/labels.md has an example).

export interface PrinterConfig {
  /** Unique within the agent: letters, digits, dots, underscores, hyphens. */
  id: string;
  name: string;
  /** A network ZPL printer: host and port (9100 by default). */
  host?: string;
  port?: number;
  /** A local print queue in raw mode (`lp -d <queue> -o raw`), where present. */
  queue?: string;
  /** The commands for a queue: `lp` and `lpstat` on PATH unless given (paths). */
  lp?: string;
  lpstat?: string;
}

export interface AgentConfig {
  /** The Floorhand server, e.g. https://floor.example.com */
  server: string;
  siteId: string;
  /**
   * The agent's own key (`agk_…`, Label Printers → Add agent), or the name of an environment variable
   * holding it (agentKeyEnv). The old names apiKey/apiKeyEnv are still read, so an old config with a
   * service account's key reaches the server and is told what to do (docs/labels.md, Migration).
   */
  agentKey: string;
  agentId: string;
  name: string;
  /** The durable job queue (a JSON file); beside the config by default. */
  queueFile: string;
  /** How often a held job is tried again, and how often printer states are asked. */
  retryMs: number;
  statusIntervalMs: number;
  /** While a job prints, how often the printer's counters are asked (~HS); 500 ms by default. */
  progressMs?: number;
  /** A job whose printer shows no progress this long fails with the count printed; 120 s by default. */
  stallMs?: number;
  printers: PrinterConfig[];
}

const ID = /^[A-Za-z0-9._-]{1,60}$/;

export function parseConfig(raw: unknown, baseDir = process.cwd(), env: NodeJS.ProcessEnv = process.env): AgentConfig {
  if (typeof raw !== 'object' || raw === null) throw new Error('The config must be a JSON object');
  const c = raw as Record<string, unknown>;
  const str = (name: string, fallback?: string): string => {
    const v = c[name] ?? fallback;
    if (typeof v !== 'string' || !v) throw new Error(`The config needs "${name}" (text)`);
    return v;
  };
  const keyEnv = typeof c.agentKeyEnv === 'string' ? c.agentKeyEnv : typeof c.apiKeyEnv === 'string' ? c.apiKeyEnv : undefined;
  if (keyEnv === undefined && c.agentKey === undefined && c.apiKey === undefined)
    throw new Error(
      'The config needs "agentKey" (the key Label Printers → Add agent shows) or "agentKeyEnv" (the environment variable holding it)',
    );
  const agentKey = keyEnv !== undefined ? (env[keyEnv] ?? '') : c.agentKey !== undefined ? str('agentKey') : str('apiKey');
  if (!agentKey) throw new Error(`The environment variable ${String(keyEnv)} holds no agent key`);
  const agentId = str('agentId');
  if (!ID.test(agentId)) throw new Error('"agentId" must be 1 to 60 letters, digits, dots, underscores or hyphens');
  if (!Array.isArray(c.printers) || !c.printers.length) throw new Error('The config needs "printers": a list of at least one printer');
  const printers = c.printers.map((p: unknown, i): PrinterConfig => {
    const q = (p ?? {}) as Record<string, unknown>;
    if (typeof q.id !== 'string' || !ID.test(q.id))
      throw new Error(`printers[${i}].id must be 1 to 60 letters, digits, dots, underscores or hyphens`);
    if (typeof q.host !== 'string' && typeof q.queue !== 'string')
      throw new Error(`printers[${i}] needs "host" (a network printer) or "queue" (a local raw queue)`);
    return {
      id: q.id,
      name: typeof q.name === 'string' ? q.name : q.id,
      ...(typeof q.host === 'string' ? { host: q.host, port: typeof q.port === 'number' ? q.port : 9100 } : {}),
      ...(typeof q.queue === 'string' ? { queue: q.queue } : {}),
      ...(typeof q.lp === 'string' ? { lp: q.lp } : {}),
      ...(typeof q.lpstat === 'string' ? { lpstat: q.lpstat } : {}),
    };
  });
  return {
    server: str('server').replace(/\/+$/, ''),
    siteId: str('siteId'),
    agentKey,
    agentId,
    name: str('name', agentId),
    queueFile: resolve(baseDir, str('queueFile', `print-agent-${agentId}.queue.json`)),
    retryMs: typeof c.retryMs === 'number' ? c.retryMs : 5000,
    statusIntervalMs: typeof c.statusIntervalMs === 'number' ? c.statusIntervalMs : 15_000,
    ...(typeof c.progressMs === 'number' ? { progressMs: c.progressMs } : {}),
    ...(typeof c.stallMs === 'number' ? { stallMs: c.stallMs } : {}),
    printers,
  };
}

export function loadConfig(path: string): AgentConfig {
  const full = resolve(path);
  return parseConfig(JSON.parse(readFileSync(full, 'utf8')), dirname(full));
}
