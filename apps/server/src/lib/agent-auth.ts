import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AGENT_KEY_PATTERN } from '@floorhand/contract/labels';
import { APP_ID } from '@floorhand/contract/constants';
import { NO_PERMS } from '@floorhand/contract/perms';
import type { Db } from '../db/client.ts';
import { query } from '../db/sql.ts';
import { forbidden, unauthorized } from './errors.ts';
import type { AuthContext } from './auth-context.ts';
import { tk } from '@floorhand/contract/i18n';

// A print agent's own credential (docs/labels.md, Agent credentials): `agk_` and 32 random bytes,
// of which the database keeps the SHA-256 (a slow hash buys nothing against 256 bits). It is accepted
// by the socket handshake only, gives no roles and no account, and speaks only the agent protocol.

/** Said to an agent key on any HTTP call (lib/calls.ts, lib/auth-context.ts). */
export const AGENT_KEY_ON_HTTP = tk(
  'This is a print agent’s key: it only connects a print agent (the socket’s agent operations), never an API call',
);

export const hashAgentKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function newAgentKey(): { key: string; hash: string } {
  const key = `agk_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashAgentKey(key) };
}

/** The token room of every socket opened with an agent's key (realtime disconnectToken reaches them on every node). */
export const agentJti = (agentId: string): string => `agentkey-${agentId}`;

interface CredentialRow {
  org_id: string;
  site_id: string;
  agent_id: string;
  name: string;
  created_by: string;
}

/** The agent principal of a key, for the socket of `siteId`'s namespace; refused when unknown, revoked or of another site. */
export async function authenticateAgent(db: Db, key: string, siteId: string): Promise<AuthContext> {
  if (!AGENT_KEY_PATTERN.test(key)) throw unauthorized('The agent key is not valid');
  const [row] = await query<CredentialRow>(
    db,
    sql`SELECT org_id, site_id, agent_id, name, created_by FROM label_agent_credentials WHERE secret_hash = ${hashAgentKey(key)}`,
  );
  if (!row)
    throw unauthorized(
      'The agent key is not valid or the agent has been revoked: add the agent again on Label Printers and put its new key in the agent’s config',
    );
  if (row.site_id !== siteId) throw forbidden(`This agent key belongs to the site '${row.site_id}'`);
  const now = Math.floor(Date.now() / 1000);
  return {
    // Who added the agent: label_agents.account_id. No roles: nothing but the agent protocol.
    accountId: row.created_by,
    userName: `agent ${row.agent_id}`,
    orgId: row.org_id,
    siteId: row.site_id,
    appId: APP_ID,
    perms: NO_PERMS,
    claims: {
      typ: 'auth',
      sub: row.created_by,
      org: row.org_id,
      site: row.site_id,
      app: APP_ID,
      lt: 0,
      stay: false,
      perms: NO_PERMS,
      ws: { id: 'agent', timeclock: false, kiosk: false },
      jti: agentJti(row.agent_id),
      iat: now,
      exp: now + 3600,
    },
    mustChangePassword: false,
    agent: { agentId: row.agent_id, name: row.name },
  };
}
