#!/usr/bin/env node
// Top entries of a V8 .cpuprofile (node --cpu-prof) by self time, and self time per file/package:
//   node bench/profile-top.mjs /tmp/prof/CPU.….cpuprofile [N]
import { readFileSync } from 'node:fs';

const [file, n = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-top.mjs <file.cpuprofile> [N]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const where = (cf) => {
  const url = cf.url.replace(/^file:\/\//, '');
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
  return pkg ?? (url.includes('/dist/') ? `server ${url.split('/dist/')[1]}` : url ? url.split('/').slice(-2).join('/') : '(native)');
};
const fns = new Map();
const files = new Map();
for (const [id, us] of self) {
  const cf = byId.get(id).callFrame;
  const key = `${cf.functionName || '(anonymous)'}  ${where(cf)}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  const f = where(cf);
  files.set(f, (files.get(f) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
const idle = [...fns].filter(([k]) => k.startsWith('(idle)')).reduce((a, [, v]) => a + v, 0);
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${pct(idle)} idle`);
console.log('\nby function (self time):');
for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, Number(n))) console.log(`${pct(us)}  ${k}`);
console.log('\nby package or file (self time):');
for (const [k, us] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(us)}  ${k}`);
