import { afterEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_HEADER } from '@floorhand/contract/i18n';
import { ERR } from '@floorhand/contract/errors';
import { apiBase, ApiError, call, callFile, isTrustedHost, post } from './api.ts';
import { dialogs } from '../components/dialogs/dialog-store.ts';
import { i18n } from './i18n.ts';
import { decodeToken, useAuthStore } from './auth-store.ts';
import { withMru } from './session-store.ts';
import { defaultWorkstationId } from './machine-store.ts';

describe('API base address', () => {
  it('is the page origin', () => {
    expect(apiBase({ origin: 'https://wh.example.com', hostname: 'wh.example.com', port: '' })).toBe('https://wh.example.com');
    expect(apiBase({ origin: 'http://localhost:8080', hostname: 'localhost', port: '8080' })).toBe('http://localhost:8080');
  });
  it('is the fixed local development server on a local host with a port from 8001 to 8999, in the development build', () => {
    expect(apiBase({ origin: 'http://localhost:8001', hostname: 'localhost', port: '8001' }, true)).toBe('http://localhost:8080');
    expect(apiBase({ origin: 'http://127.0.0.1:8999', hostname: '127.0.0.1', port: '8999' }, true)).toBe('http://localhost:8080');
    expect(apiBase({ origin: 'http://localhost:9000', hostname: 'localhost', port: '9000' }, true)).toBe('http://localhost:9000');
  });
  it('is always the page origin in the built app the server sends, whatever the port', () => {
    expect(apiBase({ origin: 'http://localhost:8192', hostname: 'localhost', port: '8192' }, false)).toBe('http://localhost:8192');
    expect(apiBase({ origin: 'http://127.0.0.1:8001', hostname: '127.0.0.1', port: '8001' }, false)).toBe('http://127.0.0.1:8001');
  });
});

describe('trusted hosts', () => {
  it('match patterns with * wildcards, case-insensitively', () => {
    expect(isTrustedHost('wh.example.com', ['*.example.com'])).toBe(true);
    expect(isTrustedHost('WH.EXAMPLE.COM', ['*.example.com'])).toBe(true);
    expect(isTrustedHost('example.com.evil.org', ['*.example.com'])).toBe(false);
    expect(isTrustedHost('localhost', [])).toBe(false);
  });
});

describe('auth token payload', () => {
  it("decodes after turning '!' into '.'", () => {
    const payload = { sub: 'u1', exp: 2_000_000_000, perms: { roles: ['siteAdmin'] }, name: 'Zoë' };
    const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(payload))))
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '');
    expect(decodeToken(`eyJhbGciOiJIUzI1NiJ9!${b64}!c2ln`)).toMatchObject(payload);
  });
  it('is undefined for garbage', () => {
    expect(decodeToken('not a token')).toBeUndefined();
    expect(decodeToken('a!%%%!b')).toBeUndefined();
    expect(decodeToken(null)).toBeUndefined();
  });
});

describe('session helpers', () => {
  it('MRU lists keep the 10 most recent, newest first, without repeats', () => {
    let list: string[] = [];
    for (let i = 0; i < 12; i++) list = withMru(list, `v${i}`);
    expect(list).toHaveLength(10);
    expect(list[0]).toBe('v11');
    expect(withMru(list, 'v5')[0]).toBe('v5');
    expect(withMru(list, 'v5').filter((v) => v === 'v5')).toHaveLength(1);
  });
  it('workstation ids are the prefix and a number below 10000', () => {
    expect(defaultWorkstationId(() => 0)).toBe('WS0000');
    expect(defaultWorkstationId(() => 0.99999)).toBe('WS9999');
  });
});

describe('query retries', () => {
  it('retries a server or network failure once, and never a refused request', async () => {
    const { ApiError, retryOnce } = await import('./api.ts');
    expect(retryOnce(0, new ApiError({ code: 'ERR', message: 'x' }, 500))).toBe(true);
    expect(retryOnce(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(retryOnce(1, new TypeError('Failed to fetch'))).toBe(false);
    expect(retryOnce(0, new ApiError({ code: 'ERR_BAD_INPUT', message: 'too long' }, 400))).toBe(false);
  });
});

describe("the screen's language", () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });
  it('goes with every call and every file download, so the server answers in it', async () => {
    const sent: Array<string | null> = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers).get(LANGUAGE_HEADER));
      return new Response('%PDF-', { status: 200, headers: { 'content-type': 'application/pdf' } });
    });
    await i18n.changeLanguage('es');
    await post('auth/logout', {} as never);
    await callFile('counts/sheet/pdf', { sheetId: 'CS-1' } as never);
    await i18n.changeLanguage('en');
    await post('auth/logout', {} as never);
    expect(sent).toEqual(['es', 'es', 'en']);
  });
});

describe('a call that outlived a logout', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    useAuthStore.setState({ authToken: null });
  });
  const refused = () =>
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ err: { code: ERR.unauthorized, message: 'Please log in first' } }), { status: 401 }),
    );

  it('is refused without a dialog when nobody is logged in (My Account asking again as the logout clears its cache)', async () => {
    const error = vi.spyOn(dialogs, 'error').mockResolvedValue(undefined as never);
    refused();
    await expect(call('account/me/get', {})).rejects.toBeInstanceOf(ApiError);
    expect(error).not.toHaveBeenCalled();
  });

  it("still shows a login's refusal (the wrong password)", async () => {
    const error = vi.spyOn(dialogs, 'error').mockResolvedValue(undefined as never);
    refused();
    await expect(call('auth/login', { userName: 'clerk', password: 'wrong' } as never)).rejects.toBeInstanceOf(ApiError);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('still shows the refusal to someone logged in', async () => {
    const error = vi.spyOn(dialogs, 'error').mockResolvedValue(undefined as never);
    useAuthStore.setState({ authToken: 'a.b.c' });
    refused();
    await expect(call('account/me/get', {})).rejects.toBeInstanceOf(ApiError);
    expect(error).toHaveBeenCalledTimes(1);
  });
});
