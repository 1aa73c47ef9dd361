// Summarizes a V8 .cpuprofile (node --cpu-prof; BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"
// profiles the server a suite starts): the top functions by self and by inclusive time, and self time per
// package, as text, and how busy the process was each 5 s (to pick the window of one phase of a suite).
// Usage: node bench/lib/cpuprofile-summary.mjs FILE.cpuprofile [top=15] [from-to, in seconds from the start]
import { readFileSync } from 'node:fs';

const [file, topArg, windowArg] = process.argv.slice(2);
const top = Number(topArg ?? 15);
const [from, to] = (windowArg ?? '0-1e9').split('-').map(Number);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** where a frame comes from: a package under node_modules, the server's own code, or Node itself */
const origin = (url) => {
  if (!url) return '(native)';
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node';
  return url.replace(/^file:\/\//, '').replace(/^.*\/(apps|packages)\//, '$1/');
};
const frameKey = (n) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url ? `${url.replace(/^.*\/(node_modules|apps|packages)\//, '$1/')}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
};

const self = new Map();
const inclusive = new Map();
const perOrigin = new Map();
// sample time: timeDeltas[i] is the time since the previous sample (µs)
const deltas = profile.timeDeltas ?? profile.samples.map(() => 1);
let total = 0;
let idle = 0;
let clock = 0;
const busyPer5s = [];
profile.samples.forEach((id, i) => {
  const dt = deltas[i + 1] ?? deltas[i] ?? 0;
  clock += deltas[i] ?? 0;
  const node = byId.get(id);
  const key = frameKey(node);
  const bucket = Math.floor(clock / 5e6);
  busyPer5s[bucket] ??= 0;
  if (node.callFrame.functionName !== '(idle)') busyPer5s[bucket] += dt;
  if (clock < from * 1e6 || clock > to * 1e6) return;
  if (node.callFrame.functionName === '(idle)') {
    idle += dt;
    return;
  }
  total += dt;
  self.set(key, (self.get(key) ?? 0) + dt);
  const o = origin(node.callFrame.url);
  perOrigin.set(o, (perOrigin.get(o) ?? 0) + dt);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = frameKey(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
  }
});

const pct = (v) => `${((100 * v) / total).toFixed(1).padStart(5)} %`;
const list = (m, n) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `  ${pct(v)}  ${k}`)
    .join('\n');
const skipRoots = (m) => new Map([...m].filter(([k]) => !/^\((root|program|garbage collector)\)/.test(k)));
console.log(
  `busy per 5 s: ${busyPer5s.map((b, i) => `${i * 5}s ${Math.round((b ?? 0) / 5e4)}%`).join(', ')}`,
);
console.log(
  `${file}${windowArg ? ` (${from}–${to} s)` : ''}: ${(total / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle`,
);
console.log(`\ntop ${top} by self time:\n${list(self, top)}`);
console.log(`\ntop ${top} by inclusive time:\n${list(skipRoots(inclusive), top)}`);
console.log(`\nself time by origin:\n${list(perOrigin, top)}`);
