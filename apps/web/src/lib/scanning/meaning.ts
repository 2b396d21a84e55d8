/**
 * The shared shape of a screen's scan table (docs/scanning.md): each screen declares, in its feature's
 * `utils/scan-meaning.ts`, what a scan means in each of its states, as a pure function returning one of
 * its own meanings or a refusal. The handler carries the answer out: a meaning the screen takes gets
 * `readFeedback`, a refusal `refuseScan` (lib/scanning/feedback.ts). Nothing is ever typed.
 */
export interface Refused {
  kind: 'refused';
  /** An i18n key with {{placeholders}}, said on screen. */
  message: string;
  params: Record<string, string>;
}

export function refused(message: string, params: Record<string, string> = {}): Refused {
  return { kind: 'refused', message, params };
}
