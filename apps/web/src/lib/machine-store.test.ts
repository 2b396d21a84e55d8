import { beforeEach, describe, expect, it, vi } from 'vitest';

// Each import of the module is a page load: the store hydrates from localStorage as the app does.
const load = async () => {
  vi.resetModules();
  return (await import('./machine-store.ts')).useMachineStore;
};
const stored = () =>
  JSON.parse(localStorage.getItem('machine_settings') ?? 'null') as { state: { workstation: { id: string; secret?: string } } } | null;

describe('machine settings', () => {
  beforeEach(() => localStorage.clear());

  it('are written on the first load, so the workstation id survives reloads without a Save', async () => {
    const first = await load();
    const id = first.getState().workstation.id;
    expect(id).toMatch(/^WS\d{4}$/);
    expect(stored()?.state.workstation.id).toBe(id);
    for (let reload = 0; reload < 5; reload++) expect((await load()).getState().workstation.id).toBe(id);
  });

  it('keep the secret a paired device was given', async () => {
    const store = await load();
    store.getState().save({ workstation: { ...store.getState().workstation, secret: 'the-device-secret-1' } });
    expect((await load()).getState().workstation.secret).toBe('the-device-secret-1');
  });

  it('keep the workstation language, and settings saved before it existed have none', async () => {
    localStorage.setItem(
      'machine_settings',
      JSON.stringify({ state: { workstation: { id: 'WS0042', timeclockOnly: false, kioskOnly: true } }, version: 0 }),
    );
    const older = await load();
    expect(older.getState().language).toBeNull();
    expect(older.getState().workstation.id).toBe('WS0042');
    older.getState().save({ language: 'es' });
    expect((await load()).getState().language).toBe('es');
  });
});
