import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { RegisterSWOptions } from 'virtual:pwa-register';
import { startServiceWorker, UPDATE_CHECK_MS, useAppUpdate } from './pwa.ts';

// The update flow of the installed app (docs/offline.md, "Installing and the app offline"), against a
// fake registerSW (virtual:pwa-register): a new version waits for the Reload button, and only the
// page where it was pressed reloads. e2e/offline-app.spec.ts runs the real worker.

interface Fake {
  options: RegisterSWOptions;
  updateServiceWorker: Mock<(reloadPage?: boolean) => Promise<void>>;
  registration: { update: Mock<() => Promise<void>> };
  reload: Mock<() => void>;
  online: { value: boolean };
}

function start(): Fake {
  const fake = {
    updateServiceWorker: vi.fn(async (_reloadPage?: boolean) => undefined),
    registration: { update: vi.fn(async () => undefined) },
    reload: vi.fn(() => undefined),
    online: { value: true },
  } as Omit<Fake, 'options'> as Fake;
  startServiceWorker(
    (options) => {
      fake.options = options;
      return fake.updateServiceWorker;
    },
    { reload: fake.reload, isOnline: () => fake.online.value },
  );
  fake.options.onRegisteredSW?.('/sw.js', fake.registration as unknown as ServiceWorkerRegistration);
  return fake;
}

beforeEach(() => {
  vi.useFakeTimers();
  useAppUpdate.setState({ ready: false, apply: () => undefined });
});
afterEach(() => vi.useRealTimers());

describe('the installed app updates', () => {
  it('offers a waiting version and does nothing more until Reload is pressed', async () => {
    const fake = start();
    expect(useAppUpdate.getState().ready).toBe(false);
    fake.options.onNeedRefresh?.();
    expect(useAppUpdate.getState().ready).toBe(true);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(fake.updateServiceWorker).not.toHaveBeenCalled();
    expect(fake.reload).not.toHaveBeenCalled();
  });

  it('Reload tells the waiting version to take over, and the page reloads once it has', () => {
    const fake = start();
    fake.options.onNeedRefresh?.();
    useAppUpdate.getState().apply();
    expect(fake.updateServiceWorker).toHaveBeenCalledTimes(1);
    expect(fake.reload).not.toHaveBeenCalled();
    fake.options.onNeedReload?.();
    expect(fake.reload).toHaveBeenCalledTimes(1);
  });

  it('a page whose version another tab applied keeps its task: it reloads only when its own Reload is pressed', () => {
    const fake = start();
    fake.options.onNeedRefresh?.();
    // Another tab pressed Reload: the new version takes this page over too.
    fake.options.onNeedReload?.();
    expect(fake.reload).not.toHaveBeenCalled();
    expect(useAppUpdate.getState().ready).toBe(true);
    // Nothing is waiting any more: Reload just reloads.
    useAppUpdate.getState().apply();
    expect(fake.reload).toHaveBeenCalledTimes(1);
    expect(fake.updateServiceWorker).not.toHaveBeenCalled();
  });

  it('asks for a new version every hour while online, and not offline', async () => {
    const fake = start();
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_MS);
    expect(fake.registration.update).toHaveBeenCalledTimes(1);
    fake.online.value = false;
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_MS);
    expect(fake.registration.update).toHaveBeenCalledTimes(1);
    fake.online.value = true;
    fake.registration.update.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_MS);
    expect(fake.registration.update).toHaveBeenCalledTimes(2);
  });
});
