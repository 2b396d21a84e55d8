import { z } from 'zod';
import { LABEL_COPIES_MAX, LABEL_KINDS, LABELS_PER_JOB_MAX } from './fields.ts';
import { tk } from '../i18n.ts';

// Printers, print agents and their jobs (docs/labels.md): what the server and the agents say to each other.

/** What a printer answers to ~HS, or that it does not answer. */
export const PRINTER_STATES = ['online', 'paused', 'paperOut', 'headOpen', 'ribbonOut', 'unreachable', 'unknown'] as const;
export type PrinterState = (typeof PRINTER_STATES)[number];
export const agentPrinterSchema = z.object({
  /** Unique on the site: `<agentId>/<printer id of the agent's config>`. */
  id: z.string().max(200),
  name: z.string().max(200),
  state: z.enum(PRINTER_STATES),
  detail: z.string().max(500).optional(),
});
export type AgentPrinter = z.infer<typeof agentPrinterSchema>;
export const labelAgentSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  /** Connected and heard from within the heartbeat window (LABEL_AGENT_OFFLINE_SECS). */
  connected: z.boolean(),
  lastSeen: z.string(),
  printers: z.array(agentPrinterSchema),
  /** The agent has a credential of its own (label/agent/create); false: an old agent that must be paired. */
  paired: z.boolean().optional(),
  /** Who added the agent and when. */
  createdBy: z.string().optional(),
  createdAt: z.string().optional(),
  /** What happened to its connection last: took over from an older connection, … */
  note: z.string().nullable().optional(),
});
export type LabelAgent = z.infer<typeof labelAgentSchema>;

// Each is also a word on the screen: a catalogue key.
/** A job's life: queued (at the server or the agent), sent (the printer took the bytes), printed, held (printer not ready, retried), failed. */
export const JOB_STATES = [tk('queued'), tk('sent'), tk('printed'), tk('held'), tk('failed')] as const;
export type JobState = (typeof JOB_STATES)[number];
export const FINAL_JOB_STATES: ReadonlySet<JobState> = new Set<JobState>(['printed', 'failed']);
export const labelJobSchema = z.object({
  jobId: z.string(),
  kind: z.enum(LABEL_KINDS),
  templateId: z.string(),
  templateVersion: z.number().int(),
  printerId: z.string(),
  copies: z.number().int(),
  labels: z.number().int(),
  state: z.enum(JOB_STATES),
  reason: z.string().nullable(),
  /**
   * Labels the printer reported printed, of labels x copies (the agent's ~HS counters, docs/labels.md
   * "Printed means printed"); null when not known (a printer without status, or nothing reported yet).
   */
  printed: z.number().int().nullable().optional(),
  /** The job printing the rest of this interrupted one (label/job/printRest), once asked. */
  restJob: z.string().nullable().optional(),
  requestedBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string(),
});
export type LabelJob = z.infer<typeof labelJobSchema>;

/** What the server sends an agent to print (the socket's printJob event, and agent/hello's pending jobs). */
export const printJobSchema = z.object({
  jobId: z.string(),
  /** The printer's id in the agent's config (without the agent prefix). */
  printer: z.string(),
  zpl: z.string(),
  copies: z.number().int().min(1).max(LABEL_COPIES_MAX),
  expiresAt: z.string(),
});
export type PrintJob = z.infer<typeof printJobSchema>;

/**
 * A print agent's own credential (docs/labels.md, Agent credentials): `agk_` and 43 characters of
 * base64url (32 random bytes), shown once by label/agent/create. It speaks only the agent protocol.
 */
export const AGENT_KEY_PATTERN = /^agk_[A-Za-z0-9_-]{43}$/;
export const looksLikeAgentKey = (token: string): boolean => token.startsWith('agk_');
export const agentIdSchema = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[A-Za-z0-9._-]+$/, tk('must be letters, digits, dots, underscores or hyphens'));
/** Why the server closed an agent's connection (the agentClosed event just before). */
export const AGENT_CLOSE_REASONS = ['takenOver', 'revoked'] as const;
export const agentClosedSchema = z.object({ why: z.enum(AGENT_CLOSE_REASONS), message: z.string() });

/** The agent's greeting over the socket: who it is and its printers. */
export const agentHelloSchema = z.object({
  agentId: agentIdSchema,
  name: z.string().min(1).max(100),
  version: z.string().max(40).optional(),
  printers: z
    .array(
      z.object({
        id: z
          .string()
          .min(1)
          .max(60)
          .regex(/^[A-Za-z0-9._-]+$/),
        name: z.string().max(200),
        state: z.enum(PRINTER_STATES),
        detail: z.string().max(500).optional(),
      }),
    )
    .max(100),
});
export type AgentHello = z.infer<typeof agentHelloSchema>;
export const agentResultSchema = z.object({
  jobId: z.string().min(1).max(100),
  state: z.enum(JOB_STATES),
  reason: z.string().max(500).optional(),
  /** Labels printed so far (of labels x copies), from the printer's ~HS counters; absent when not known. */
  printed: z
    .number()
    .int()
    .min(0)
    .max(LABELS_PER_JOB_MAX * LABEL_COPIES_MAX)
    .optional(),
});
export type AgentResult = z.infer<typeof agentResultSchema>;
