import { beforeEach, describe, expect, it, vi } from 'vitest';

// startSession against a stubbed server: the session's stored preferences are { stockLookup: { sort: 'location' } }.
const call = vi.hoisted(() =>
  vi.fn(async (path: string) => {
    if (path === 'capture/session/genSessionToken') return { sessionToken: 'st' };
    if (path === 'site/access/getVisibleFeatures') return { visibleFeatures: {} };
    if (path === 'capture/session/getSession') return { session: { sessionId: 's1', prefs: { stockLookup: { sort: 'location' } } } };
    return {};
  }),
);
vi.mock('./api.ts', () => ({ call, setLogoutHandler: () => undefined, setKioskEndedHandler: () => undefined }));
vi.mock('./socket.ts', () => ({
  createRealtime: () => ({ on: () => undefined, connect: () => undefined, disconnect: () => undefined, subscribe: () => undefined }),
}));

const { forgetPerson, startSession } = await import('./session.ts');
const { useAuthStore } = await import('./auth-store.ts');
const { useSessionStore } = await import('./session-store.ts');

const b64url = (o: unknown) => btoa(JSON.stringify(o)).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
const token = `${b64url({ alg: 'HS256' })}!${b64url({ sub: 'u1', perms: { roles: ['clerk'] }, exp: 4_000_000_000 })}!sig`;

describe('startSession', () => {
  beforeEach(() => {
    useAuthStore.setState({
      authToken: token,
      user: { id: 'u1', firstName: 'C', surnames: 'Clerk' } as never,
      org: { id: 'demo', name: 'Demo' },
    });
    // A change made here and not saved yet (its save is debounced).
    useSessionStore.getState().set({ prefs: { stockLookup: { sort: 'quantity' } } });
  });

  it('loads the stored preferences when a session starts (login, reload)', async () => {
    await startSession();
    expect(useSessionStore.getState().prefs).toEqual({ stockLookup: { sort: 'location' } });
  });

  it("starts nothing for a badge's human token whose worker is not known yet (a token renewal as a worker badges in at a kiosk)", async () => {
    call.mockClear();
    useAuthStore.setState({ humanToken: 'human' });
    try {
      await startSession({ loadPrefs: false });
      expect(call).not.toHaveBeenCalled();
    } finally {
      useAuthStore.setState({ humanToken: null });
    }
  });

  it('drops a start under way when the person changes meanwhile, and its calls keep the human token it began with', async () => {
    call.mockClear();
    useSessionStore.getState().set({ sessionToken: 'next person', sessionId: 'theirs' });
    let answer: (v: { sessionToken: string }) => void = () => undefined;
    call.mockImplementationOnce(() => new Promise<{ sessionToken: string }>((ok) => (answer = ok)));
    const starting = startSession();
    expect(call).toHaveBeenCalledWith('capture/session/genSessionToken', expect.anything(), { humanToken: null });
    forgetPerson({ closeDialogs: false });
    useSessionStore.getState().set({ sessionToken: 'next person', sessionId: 'theirs' });
    answer({ sessionToken: 'stale' });
    await starting;
    expect(useSessionStore.getState()).toMatchObject({ sessionToken: 'next person', sessionId: 'theirs' });
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('keeps the preferences it holds after a token renewal', async () => {
    await startSession({ loadPrefs: false });
    expect(useSessionStore.getState().prefs).toEqual({ stockLookup: { sort: 'quantity' } });
    expect(useSessionStore.getState()).toMatchObject({ sessionToken: 'st', sessionId: 's1' });
  });
});
