#!/usr/bin/env node
// The console's first load: what the built `index.html` makes a browser fetch before the first page is
// drawn (its scripts, module preloads and style sheets, and every module those scripts import
// statically), each file's size and its size gzipped (`gzip -9`, as a server or proxy would send it).
// Chunks loaded by a dynamic `import()` (pages opened later) are listed apart and not counted.
//
//   node scripts/console-weight.mjs [--max <kB>] [--json] [root]
//
// `--max` exits 1 when the first load's gzipped total passes that many kB (1 kB = 1000 bytes).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const DEFAULT_ROOT = fileURLToPath(new URL('../packages/server/console', import.meta.url));

/** Static `import … from "x"`, `import "x"` and `export … from "x"` in a built module (not `import(…)`). */
const STATIC_IMPORT = /(?:^|[;}\n])\s*(?:import|export)\s*(?:[^;()'"`]*?\bfrom\s*)?["']([^"']+)["']/g;

/** The files a first visit loads, relative to `root`, and every other built asset. */
export function consoleWeight(root = DEFAULT_ROOT) {
  const htmlPath = join(root, 'index.html');
  if (!existsSync(htmlPath)) throw new Error(`no built console at ${root}: run npm run build first`);
  const html = readFileSync(htmlPath, 'utf8');
  const first = new Set(['index.html']);
  const queue = [];
  for (const [element] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const url = /\b(?:src|href)="([^"]+)"/.exec(element)?.[1];
    if (!url || /^(?:data:|https?:)/.test(url)) continue;
    if (element.startsWith('<link') && !/\brel="(?:stylesheet|modulepreload|preload)"/.test(element)) continue;
    queue.push(url.replace(/^\//, ''));
  }
  while (queue.length > 0) {
    const file = queue.shift();
    if (first.has(file)) continue;
    first.add(file);
    if (!file.endsWith('.js')) continue;
    const code = readFileSync(join(root, file), 'utf8');
    for (const [, spec] of code.matchAll(STATIC_IMPORT)) {
      if (spec.startsWith('.')) queue.push(posix.normalize(posix.join(posix.dirname(file), spec)));
    }
  }
  const measure = (file) => {
    const bytes = readFileSync(join(root, file));
    return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const firstLoad = [...first].map(measure);
  const later = readdirSync(join(root, 'assets'))
    .map((name) => `assets/${name}`)
    .filter((file) => !first.has(file))
    .map(measure);
  const sum = (files) => files.reduce((total, f) => total + f.gzip, 0);
  return { firstLoad, firstLoadGzip: sum(firstLoad), later, laterGzip: sum(later) };
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

function main(argv) {
  const maxAt = argv.indexOf('--max');
  const max = maxAt >= 0 ? Number(argv[maxAt + 1]) : null;
  const root = argv.find((arg, i) => !arg.startsWith('--') && (maxAt < 0 || i !== maxAt + 1)) ?? DEFAULT_ROOT;
  const weight = consoleWeight(root);
  if (argv.includes('--json')) {
    console.log(JSON.stringify(weight, null, 2));
  } else {
    const hashless = (file) => file.replace(/-[\w-]{8}\.(js|css)$/, '-*.$1');
    console.log('| file | size | gzipped | loaded |');
    console.log('|---|---|---|---|');
    for (const f of weight.firstLoad) console.log(`| \`${hashless(f.file)}\` | ${kB(f.bytes)} | ${kB(f.gzip)} | at once |`);
    for (const f of weight.later.sort((a, b) => b.gzip - a.gzip))
      console.log(`| \`${hashless(f.file)}\` | ${kB(f.bytes)} | ${kB(f.gzip)} | on demand |`);
    console.log(
      `\nFirst load: ${kB(weight.firstLoadGzip)} gzipped (${weight.firstLoad.length} files); on demand: ${kB(weight.laterGzip)} gzipped.`,
    );
  }
  if (max !== null && weight.firstLoadGzip > max * 1000) {
    console.error(`the first load is ${kB(weight.firstLoadGzip)} gzipped, over the ${max} kB budget`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
