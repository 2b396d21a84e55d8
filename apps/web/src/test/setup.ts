// Mantine reads matchMedia and ResizeObserver, which jsdom lacks.
import { vi } from 'vitest';
import { configure } from '@testing-library/react';

// These machines are shared: a findBy or waitFor gives a loaded machine 5 s, not 1 s, before it fails.
configure({ asyncUtilTimeout: 5000 });

if (typeof window !== 'undefined') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: vi.fn().mockImplementation((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  });

  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  window.ResizeObserver = ResizeObserverStub;
  window.HTMLElement.prototype.scrollIntoView = () => {};
}
