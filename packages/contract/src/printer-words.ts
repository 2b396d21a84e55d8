// Printer problems in words (issue 26 item 10), a file of its own so the web's notifications load it
// without the labels contract. Server (agent reports, printer details) and web use the same words.

import { english, tk, type Translate } from './i18n.ts';

/**
 * A printer problem in words (what an agent reports, e.g. "connect ECONNREFUSED 10.0.0.5:9100"):
 * the system's error codes said as a person would (in the screen's language with its `t`), the rest
 * as it was. Server and web both use it.
 */
const PRINTER_ERROR_WORDS = new Map<string, string>([
  ['ECONNREFUSED', tk('printer not answering')],
  ['ETIMEDOUT', tk('printer not answering (no reply in time)')],
  ['EHOSTUNREACH', tk('printer not reachable on the network')],
  ['ENETUNREACH', tk('printer not reachable on the network (no route to its network)')],
  ['EHOSTDOWN', tk('printer not reachable on the network (the host is down)')],
  ['ENOTFOUND', tk('printer address not found')],
  ['EAI_AGAIN', tk('printer address not found (name lookup failed; try again)')],
  ['ECONNRESET', tk('the printer broke the connection')],
  ['EPIPE', tk('the printer closed the connection while receiving')],
]);
export function printerProblemInWords(text: string, t: Translate = english): string {
  let said = false;
  const out = text.replace(
    /(?:\b(?:connect|read|write|getaddrinfo)\s+)?\b(E[A-Z]{3,}(?:_[A-Z]+)?)\b(?:\s+([\w.-]+(?::\d+)?))?/,
    (whole, code: string, where?: string) => {
      const words = PRINTER_ERROR_WORDS.get(code);
      if (!words) return whole;
      said = true;
      return where ? t('{{words}} at {{where}}', { words: t(words), where }) : t(words);
    },
  );
  // "printer unreachable: printer not answering …" says it once.
  return said ? out.replace(/^printer unreachable:\s*(?=printer )/i, '') : text;
}
