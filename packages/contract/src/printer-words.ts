// Printer problems in words (issue 26 item 10), a file of its own so the web's notifications load it
// without the labels contract. Server (agent reports, printer details) and web use the same words.

/**
 * A printer problem in words (what an agent reports, e.g. "connect ECONNREFUSED 10.0.0.5:9100"):
 * the system's error codes said as a person would, the rest as it was. Server and web both use it.
 */
const PRINTER_ERROR_WORDS = new Map<string, string>([
  ['ECONNREFUSED', 'printer not answering'],
  ['ETIMEDOUT', 'printer not answering (no reply in time)'],
  ['EHOSTUNREACH', 'printer not reachable on the network'],
  ['ENETUNREACH', 'printer not reachable on the network (no route to its network)'],
  ['EHOSTDOWN', 'printer not reachable on the network (the host is down)'],
  ['ENOTFOUND', 'printer address not found'],
  ['EAI_AGAIN', 'printer address not found (name lookup failed; try again)'],
  ['ECONNRESET', 'the printer broke the connection'],
  ['EPIPE', 'the printer closed the connection while receiving'],
]);
export function printerProblemInWords(text: string): string {
  let said = false;
  const out = text.replace(
    /(?:\b(?:connect|read|write|getaddrinfo)\s+)?\b(E[A-Z]{3,}(?:_[A-Z]+)?)\b(?:\s+([\w.-]+(?::\d+)?))?/,
    (whole, code: string, where?: string) => {
      const words = PRINTER_ERROR_WORDS.get(code);
      if (!words) return whole;
      said = true;
      return `${words}${where ? ` at ${where}` : ''}`;
    },
  );
  // "printer unreachable: printer not answering …" says it once.
  return said ? out.replace(/^printer unreachable:\s*(?=printer )/i, '') : text;
}
