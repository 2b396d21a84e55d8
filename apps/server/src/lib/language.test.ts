import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { compileCatalogue, LANGUAGE_HEADER } from '@floorhand/contract/i18n';
import type { ServerErr } from '@floorhand/contract/errors';
import type { ClientToServerEvents, SendReply, ServerToClientEvents } from '@floorhand/contract/realtime';
import { call, createTestApp, DEMO_BASE, type TestApp } from '../test/harness.ts';
import { tokenFor } from '../test/logins.ts';
import { pdfTexts } from '../test/pdf-text.ts';
import { languageOf, TRANSLATED_MAX, translateErr, translator, zodIssueIn } from './language.ts';

// The server answers in the screen's language (issue 29): its errors, its PDFs, a refused import's
// report. A catalogue of the test's own stands for es.json, so these tests do not hang on its wording.
vi.mock('@floorhand/contract/locales/es.json', () => ({
  default: {
    'Please log in first': 'Inicia sesión primero',
    'The token is not valid': 'El token no es válido',
    "Unknown topic '{{0}}'": "Tema desconocido '{{0}}'",
    'The request is not valid: {{0}}': 'La solicitud no es válida: {{0}}',
    "No count sheet '{{0}}' exists": "No existe la hoja de recuento '{{0}}'",
    'Count sheet {{code}}': 'Hoja de recuento {{code}}',
    Location: 'Ubicación',
    Counted: 'Contado',
    'Blind count: write what you count; expected quantities are not printed':
      'Recuento a ciegas: escribe lo que cuentes; las cantidades esperadas no se imprimen',
  },
}));

const TEST_CATALOGUE = compileCatalogue({
  Save: 'Guardar',
  "No warehouse '{{0}}' exists": "No existe el almacén '{{0}}'",
  '{{0}} is in row {{1}} already': '{{0}} ya está en la fila {{1}}',
  'This code': 'Este código',
  'Moved {{qty}} to {{code}}': 'Movido {{qty}} a {{code}}',
});

describe('the language of a request', () => {
  it.each([
    [{ headers: { [LANGUAGE_HEADER]: 'es' } }, 'es'],
    [{ headers: { [LANGUAGE_HEADER]: 'es-ES' } }, 'es'],
    [{ headers: { [LANGUAGE_HEADER]: ['es', 'en'] } }, 'es'],
    [{ headers: { [LANGUAGE_HEADER]: 'en' }, query: { lang: 'es' } }, 'en'],
    [{ headers: {}, query: { lang: 'es' } }, 'es'],
    [{ headers: {}, query: { lang: ['es'] } }, 'es'],
    [{ headers: {}, auth: { token: 'x', lang: 'es' } }, 'es'],
    [{ headers: {} }, 'en'],
    [{}, 'en'],
    [{ headers: { [LANGUAGE_HEADER]: 'fr' } }, 'en'],
    [{ headers: { [LANGUAGE_HEADER]: '__proto__' } }, 'en'],
    [{ headers: { [LANGUAGE_HEADER]: 'constructor' } }, 'en'],
    [{ headers: { [LANGUAGE_HEADER]: '' } }, 'en'],
    [{ headers: { [LANGUAGE_HEADER]: 'x'.repeat(10_000) } }, 'en'],
    [{ query: { lang: 42 } }, 'en'],
    // Only the query's own `lang`: one inherited from a prototype is not the caller's.
    [{ query: Object.create({ lang: 'es' }) as unknown }, 'en'],
    [{ query: null, auth: 'es' }, 'en'],
  ])('%j is %s', (source, lang) => {
    expect(languageOf(source as Parameters<typeof languageOf>[0])).toBe(lang);
  });
});

describe('translator', () => {
  const t = translator('es', TEST_CATALOGUE);
  it('translates exact keys, keys with numbered holes, and fills named holes after', () => {
    expect(t('Save')).toBe('Guardar');
    expect(t("No warehouse 'MAIN' exists")).toBe("No existe el almacén 'MAIN'");
    // A hole's value that is itself a key is translated too.
    expect(t('This code is in row 3 already')).toBe('Este código ya está en la fila 3');
    expect(t('Moved {{qty}} to {{code}}', { qty: 5, code: 'A-01' })).toBe('Movido 5 a A-01');
  });
  it('leaves a text it does not know, and English, as written', () => {
    expect(t('Something new')).toBe('Something new');
    expect(translator('en')('Save')).toBe('Save');
    expect(translator('en')('Moved {{qty}} to {{code}}', { qty: 1, code: 'B' })).toBe('Moved 1 to B');
    // A hole without a value stays a hole; a parameter named like a prototype member is nobody's.
    expect(t('{{missing}} and {{constructor}}', { qty: 1 })).toBe('{{missing}} and {{constructor}}');
  });
  it('leaves a message longer than TRANSLATED_MAX as written, at once, whatever it holds', () => {
    const hostile = compileCatalogue({ '{{0}} is in row {{1}} already: {{2}}': '{{0}} {{1}} {{2}}' });
    const text = ' is in row '.repeat(50_000);
    const started = performance.now();
    expect(translator('es', hostile)(text)).toBe(text);
    expect(performance.now() - started).toBeLessThan(100);
    expect(TRANSLATED_MAX).toBeLessThan(text.length);
  });
  it('translates an error, its cause and a refused import’s problems, and no other detail', () => {
    const report = { entity: 'locations', rows: 2, rejected: [{ row: 2, field: 'code', message: 'This code is in row 1 already' }] };
    const err: ServerErr = {
      code: 'ERR_BAD_INPUT',
      message: "No warehouse 'X' exists",
      detail: JSON.stringify(report),
      causedByErr: { code: 'ERR', message: 'Save', detail: 'Save' },
    };
    const out = translateErr(err, t);
    expect(out.message).toBe("No existe el almacén 'X'");
    expect(JSON.parse(out.detail!)).toEqual({
      ...report,
      rejected: [{ row: 2, field: 'code', message: 'Este código ya está en la fila 1' }],
    });
    expect(out.causedByErr).toEqual({ code: 'ERR', message: 'Guardar', detail: 'Save' });
    expect(translateErr({ code: 'E', message: 'Save', detail: '{"rejected": broken' }, t).detail).toBe('{"rejected": broken');
    // A record's field errors, which a form shows by its fields.
    const fields = { errors: { warehouse: ["No warehouse 'B' exists", 7], _record: 'Save' }, calcError: 'Save' };
    expect(JSON.parse(translateErr({ code: 'E', message: 'x', detail: JSON.stringify(fields) }, t).detail!)).toEqual({
      errors: { warehouse: ["No existe el almacén 'B'", 7], _record: 'Save' },
      calcError: 'Save',
    });
  });
  it("words zod's own messages in the language, and leaves a schema's own message to the catalogue", () => {
    const tooSmall = {
      keyword: 'too_small',
      message: 'Too small: expected string to have >=1 characters',
      params: { origin: 'string', minimum: 1, inclusive: true },
    };
    expect(zodIssueIn('es', tooSmall)).toBe('Demasiado pequeño: se esperaba que texto tuviera >=1 caracteres');
    expect(zodIssueIn('en', tooSmall)).toBe(tooSmall.message);
    const invalidType = {
      keyword: 'invalid_type',
      message: 'Invalid input: expected string, received number',
      params: { expected: 'string' },
    };
    expect(zodIssueIn('es', invalidType)).toBe('Entrada inválida: se esperaba texto, recibido número');
    expect(zodIssueIn('es', { keyword: 'too_small', message: 'Give a name', params: { origin: 'string', minimum: 1 } })).toBe(
      'Give a name',
    );
    expect(zodIssueIn('es', { keyword: 'no_such_code', message: 'Please log in first' })).toBe('Inicia sesión primero');
  });
});

describe('answers in the language of the screen', () => {
  let t: TestApp;
  let base: string;
  let admin: string;
  const open: Array<Socket<ServerToClientEvents, ClientToServerEvents>> = [];
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await tokenFor(t.app, 'admin');
  });
  afterAll(async () => {
    for (const s of open) s.disconnect();
    await t?.close();
  });

  const sheetPdf = (body: Record<string, unknown>, headers: Record<string, string> = {}, url = '/api/counts/sheet/pdf') =>
    t.app.inject({ method: 'POST', url, payload: { ...DEMO_BASE, ...body }, headers });

  it('refuses in Spanish with the header, in English without it', async () => {
    const es = await sheetPdf({ sheetId: 'x' }, { [LANGUAGE_HEADER]: 'es' });
    expect(es.statusCode).toBe(401);
    expect(es.json().err).toMatchObject({ code: 'ERR_UNAUTHORIZED', message: 'Inicia sesión primero' });
    expect((await sheetPdf({ sheetId: 'x' })).json().err.message).toBe('Please log in first');
    // A link has no headers: ?lang= instead.
    expect((await sheetPdf({ sheetId: 'x' }, {}, '/api/counts/sheet/pdf?lang=es')).json().err.message).toBe('Inicia sesión primero');
  });

  it.each(['fr', '__proto__', 'constructor', 'toString', 'es\u0000', '{{0}}'])(
    'answers English to the language %j, never a 500',
    async (lang) => {
      const res = await sheetPdf({ sheetId: 'x' }, { [LANGUAGE_HEADER]: lang });
      expect(res.statusCode).toBe(401);
      expect(res.json().err.message).toBe('Please log in first');
    },
  );

  it('puts values back into a translated message, and words a body that fails its schema in Spanish', async () => {
    const auth = { authorization: `Bearer ${admin}`, [LANGUAGE_HEADER]: 'es' };
    const missing = await sheetPdf({ sheetId: 'NO-SUCH' }, auth);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().err.message).toBe("No existe la hoja de recuento 'NO-SUCH'");
    const bad = await sheetPdf({ sheetId: 42 }, auth);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().err.message).toMatch(/^La solicitud no es válida: sheetId: Entrada inválida/);
  });

  it('prints a count sheet in Spanish', async () => {
    const code = `LANG-${Date.now() % 100000}-1`;
    const saved = await call(t.app, 'location/save', { record: { warehouse: 'MAIN', code, description: 'Idioma', type: 'bin' } }, admin);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const created = await call(
      t.app,
      'counts/sheet/create',
      { warehouse: 'MAIN', fromLocation: code, toLocation: code, blind: true },
      admin,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const sheet = created.body.sheet!;
    const es = await sheetPdf({ sheetId: sheet._id }, { authorization: `Bearer ${admin}`, [LANGUAGE_HEADER]: 'es' });
    expect(es.statusCode, es.body).toBe(200);
    const texts = await pdfTexts(es.rawPayload);
    expect(texts).toEqual(
      expect.arrayContaining([
        `Hoja de recuento ${sheet.code}`,
        'Ubicación',
        'Contado',
        'Recuento a ciegas: escribe lo que cuentes; las cantidades esperadas no se imprimen',
      ]),
    );
    const en = await pdfTexts((await sheetPdf({ sheetId: sheet._id }, { authorization: `Bearer ${admin}` })).rawPayload);
    expect(en).toEqual(expect.arrayContaining([`Count sheet ${sheet.code}`, 'Location', 'Counted']));
  });

  it('refuses a socket, and answers its sends, in the language of its handshake', async () => {
    const socketTo = (token: string, lang?: string) => {
      const s: Socket<ServerToClientEvents, ClientToServerEvents> = io(`${base}/demo-main`, {
        transports: ['websocket'],
        auth: { token, ...(lang ? { lang } : {}) },
        reconnection: false,
        forceNew: true,
      });
      open.push(s);
      return s;
    };
    const refusal = (s: Socket) =>
      new Promise<ServerErr | undefined>((resolve) => s.once('connect_error', (e: Error & { data?: ServerErr }) => resolve(e.data)));
    expect(await refusal(socketTo('not-a-token', 'es'))).toMatchObject({ message: 'El token no es válido' });
    expect(await refusal(socketTo('not-a-token', '__proto__'))).toMatchObject({ message: 'The token is not valid' });
    const s = socketTo(admin, 'es');
    await new Promise<void>((resolve) => s.once('connect', () => resolve()));
    const reply = await new Promise<SendReply>((resolve) => s.emit('send', { op: 'subscribe', data: { topic: 'nope' } }, resolve));
    expect(reply.err).toMatchObject({ code: 'ERR_BAD_INPUT', message: "Tema desconocido 'nope'" });
  });
});
