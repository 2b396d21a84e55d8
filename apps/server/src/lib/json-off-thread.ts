/*
 * A large JSON body parsed in a worker thread: JSON.parse of an import's 25 MB body, and the scan of
 * its text for what the database cannot store, take hundreds of ms that would stall every other
 * request. The worker does both (the same checks as the app's default parser, proto and constructor
 * poisoning refused, and as app.ts's unstorableInput); the parsed body comes back by structured
 * clone, which is a copy, not a parse. Bodies under OFF_THREAD_BYTES are parsed in place.
 */
import { Worker } from 'node:worker_threads';
import { badInput } from './errors.ts';

/** Bodies of this many bytes and more are parsed off the event loop. */
export const OFF_THREAD_BYTES = 256 * 1024;

/** Bodies whose text the worker has checked already (app.ts's preValidation skips its own scan of them). */
const checkedOffThread = new WeakSet<object>();
export const bodyCheckedOffThread = (body: unknown): boolean => typeof body === 'object' && body !== null && checkedOffThread.has(body);

// CommonJS run by the worker as is (not bundled). unstorable() is app.ts's unstorableInput: keep them alike.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const UNSTORABLE_TEXT = /\\u0000|\\p{Cs}/u;
const MAX_BODY_DEPTH = 64;
function unstorable(value, path, depth) {
  const at = path || 'body';
  if (typeof value === 'string') return UNSTORABLE_TEXT.test(value) ? at + ': must not contain NUL or unpaired surrogate characters' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_BODY_DEPTH) return at + ': nested more than ' + MAX_BODY_DEPTH + ' levels deep';
  for (const [key, v] of Object.entries(value)) {
    if (UNSTORABLE_TEXT.test(key)) return at + ': a key must not contain NUL or unpaired surrogate characters';
    const problem = unstorable(v, path ? path + '.' + key : key, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}
function poisoned(value, depth) {
  if (typeof value !== 'object' || value === null || depth > MAX_BODY_DEPTH) return false;
  if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return true;
  const ctor = Object.prototype.hasOwnProperty.call(value, 'constructor') ? value.constructor : undefined;
  if (ctor !== null && typeof ctor === 'object' && Object.prototype.hasOwnProperty.call(ctor, 'prototype')) return true;
  for (const v of Object.values(value)) if (poisoned(v, depth + 1)) return true;
  return false;
}
let answer;
try {
  const value = JSON.parse(Buffer.from(workerData.buffer, workerData.byteOffset, workerData.byteLength).toString('utf8'));
  if (poisoned(value, 0)) answer = { message: 'Object contains forbidden prototype property' };
  else answer = { value, unstorable: unstorable(value, '', 0) };
} catch (error) {
  answer = { message: 'The body is not valid JSON: ' + error.message };
}
parentPort.postMessage(answer);
`;

interface Answer {
  value?: unknown;
  unstorable?: string;
  message?: string;
}

/** The body parsed by a worker thread of its own; bad JSON or a poisoned or unstorable body is a 400. */
export async function parseJsonOffThread(body: Buffer): Promise<unknown> {
  const answer = await new Promise<Answer>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: body });
    worker.once('message', (a: Answer) => {
      resolve(a);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the JSON worker stopped (exit ${code})`)));
  });
  if (answer.message !== undefined) throw badInput(answer.message);
  if (answer.unstorable !== undefined) throw badInput(`The request is not valid: ${answer.unstorable}`);
  if (typeof answer.value === 'object' && answer.value !== null) checkedOffThread.add(answer.value);
  return answer.value;
}
