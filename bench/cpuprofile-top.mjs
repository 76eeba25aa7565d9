#!/usr/bin/env node
// Where a `node --cpu-prof` profile spent its time: self time by package (node_modules/<name>, Node's
// own, Garrison's dist, idle, GC) and the heaviest functions; with --while=PACKAGE, also how idle the process
// was in the 100 ms windows in which that package ran (a service's profile covers its idle stretches too).
// `node bench/cpuprofile-top.mjs FILE.cpuprofile [N] [--while=formidable]`.
import { readFile } from 'node:fs/promises';

const [file, top = '15'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const whilePackage = process.argv.find((arg) => arg.startsWith('--while='))?.slice('--while='.length);
const profile = JSON.parse(await readFile(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
// timeDeltas[i] is the time before samples[i]: charge it to that sample's function.
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = ({ callFrame: { url, functionName } }) => {
  if (['(idle)', '(garbage collector)', '(program)'].includes(functionName)) return functionName;
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1];
  if (url.startsWith('node:') || !url) return 'node (built-ins, native)';
  if (url.includes('/bench/')) return 'bench';
  return 'garrison';
};
const byPlace = new Map();
const byFunction = new Map();
for (const [id, us] of self) {
  const node = nodes.get(id);
  byPlace.set(where(node), (byPlace.get(where(node)) ?? 0) + us);
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(packages|bench)\//, '$1/');
  const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1)} %`;
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled\n\nself time by place:`);
for (const [place, us] of [...byPlace].sort((a, b) => b[1] - a[1]))
  console.log(`  ${pct(us).padStart(7)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${place}`);
console.log(`\nheaviest functions (self time):`);
for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
  console.log(`  ${pct(us).padStart(7)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${fn}`);

if (whilePackage) {
  const windows = new Map();
  let at = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    const { functionName, url } = nodes.get(id).callFrame;
    const window = windows.get(Math.floor(at / 100_000)) ?? { all: 0, idle: 0, package: 0 };
    window.all += us;
    if (functionName === '(idle)') window.idle += us;
    if (url.includes(`node_modules/${whilePackage}/`)) window.package += us;
    windows.set(Math.floor(at / 100_000), window);
  });
  const busy = [...windows.values()].filter((window) => window.package > 0);
  const sum = (key) => busy.reduce((total, window) => total + window[key], 0);
  console.log(
    `\nin the ${busy.length} windows of 100 ms in which ${whilePackage} ran: ` +
      `idle ${pct((sum('idle') * total) / sum('all'))}, ${whilePackage} itself ${pct((sum('package') * total) / sum('all'))}`,
  );
}
