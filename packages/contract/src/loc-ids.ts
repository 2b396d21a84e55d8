// The spec's location ids (section 7) of the calls that have one, by call path. Zod-free on purpose:
// the web's request helper sends them from the login page on, which loads no schema. The call maps
// (api.ts) read their locId from here; a call with none sends the caller's own, if any.

export const SPEC_LOC_IDS: ReadonlyMap<string, string> = new Map([
  ['site/resolve', 'c1141'],
  ['site/getData', 'c1142'],
  ['auth/login', 'c1135'],
  ['auth/logout', 'c1146'],
  ['auth/refresh', 'c1147'],
  ['capture/session/genSessionToken', 'c1137'],
  ['site/access/getVisibleFeatures', 'c1138'],
  ['capture/session/getSession', 'c1139'],
  ['capture/session/putSession', 'c1140'],
  ['docIo/zplPrinter/getAttachedPrinters', 'c1136'],
]);
