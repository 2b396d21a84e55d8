import { afterEach, describe, expect, it } from 'vitest';
import { closeScanner, closeScannerOnPageChange, openScanner, useScannerStore } from './scanner-store.ts';

afterEach(() => {
  closeScanner();
  window.history.replaceState(null, '', '/');
});

describe('the scanner closes when the page changes', () => {
  it('stays open when the page reported is the one it was opened on (a late report of the page tapped on)', () => {
    window.history.replaceState(null, '', '/tasks');
    openScanner();
    closeScannerOnPageChange('/tasks');
    expect(useScannerStore.getState().open).toBe(true);
  });

  it('closes on another page', () => {
    window.history.replaceState(null, '', '/tasks');
    openScanner();
    closeScannerOnPageChange('/stockLookup');
    expect(useScannerStore.getState().open).toBe(false);
  });

  it('compares the browser path (percent-encoded) with the router path (decoded)', () => {
    window.history.replaceState(null, '', '/stockLookup/A%20B');
    openScanner();
    closeScannerOnPageChange('/stockLookup/A B');
    expect(useScannerStore.getState().open).toBe(true);
  });
});
