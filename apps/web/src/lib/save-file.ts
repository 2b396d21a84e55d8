/**
 * How long a saved file's blob URL lives: Chromium starts the download after the click returns, so
 * the URL is revoked later, never at once (a revoked URL downloads nothing, or a failed download).
 */
export const REVOKE_AFTER_MS = 10_000;

/**
 * Saves a blob as a file the browser downloads, named `fileName`: a blob URL on a temporary
 * `<a download>` (a PDF of 200 labels is too long for a data: link), clicked, removed, and revoked
 * after REVOKE_AFTER_MS.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/** The bytes of base64 data (a PDF or PNG a call answers in JSON) as a blob of the given MIME type. */
export function base64Blob(base64: string, type: string): Blob {
  return new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type });
}
