import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { base64Blob, REVOKE_AFTER_MS, saveFile } from './save-file.ts';

/** What the clicked link held when it was clicked. */
interface Clicked {
  href: string;
  download: string;
  inDocument: boolean;
}

describe('saveFile', () => {
  let clicked: Clicked[];
  let created: Blob[];
  let revoked: string[];

  beforeEach(() => {
    vi.useFakeTimers();
    clicked = [];
    created = [];
    revoked = [];
    // jsdom has no blob URLs and does not navigate: record instead.
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return `blob:test/${created.length}`;
    });
    URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, inDocument: document.body.contains(this) });
    });
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('clicks a link in the page to the blob, named, and leaves no link behind', () => {
    const blob = new Blob(['a,b\n1,2\n'], { type: 'text/csv' });
    saveFile(blob, 'labor-2026-11-01-2026-11-07.csv');
    expect(created).toEqual([blob]);
    expect(clicked).toEqual([{ href: 'blob:test/1', download: 'labor-2026-11-01-2026-11-07.csv', inDocument: true }]);
    expect(document.querySelectorAll('a').length).toBe(0);
  });

  it('revokes the URL only after the download has had time to start', () => {
    saveFile(new Blob(['x']), 'x.txt');
    vi.advanceTimersByTime(0);
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(REVOKE_AFTER_MS - 1);
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(revoked).toEqual(['blob:test/1']);
  });
});

describe('base64Blob', () => {
  it('decodes every byte (not text) and carries the MIME type', async () => {
    const bytes = [0x25, 0x50, 0x44, 0x46, 0x00, 0x80, 0xff];
    const blob = base64Blob(btoa(String.fromCharCode(...bytes)), 'application/pdf');
    expect(blob.type).toBe('application/pdf');
    const read = await new Promise<ArrayBuffer>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error);
      reader.readAsArrayBuffer(blob); // jsdom's Blob has no arrayBuffer()
    });
    expect([...new Uint8Array(read)]).toEqual(bytes);
  });
});
