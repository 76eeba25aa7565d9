#!/usr/bin/env node
// bench/multipart-parsers: busboy and formidable alone on the same multipart body, in this process, with no
// HTTP server, no socket and no service: a SIZE_MIB (default 256) file part, fed in 64 KiB chunks (what
// a request delivers from its socket), each parser used as the service uses it (busboy's part piped on;
// formidable's part through its fileWriteStreamHandler). Sides that write to a file measure the disk
// too; sides whose sink takes every chunk at once measure the parser's work alone. Alternating rounds,
// medians of wall and CPU time. formidable as in bench/mission-upload.mjs (`npm i --no-save formidable@3`
// or FORMIDABLE_FROM). `npm run bench:multipart-parsers`; `node --cpu-prof` on it shows where each spends.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';

const SIZE = Number(process.env.SIZE_MIB ?? 256) * 1024 * 1024;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CHUNK = 64 * 1024;
const WRITE_BUFFER_BYTES = 1024 * 1024; // the service's
const only = process.env.SIDES?.split(','); // e.g. SIDES=formidable-sink for a profile of one side

const busboy = createRequire(new URL('../packages/server/package.json', import.meta.url)).resolve('busboy');
const { default: Busboy } = await import(pathToFileURL(busboy).href);
const formidableEntry = (() => {
  try {
    return createRequire(process.env.FORMIDABLE_FROM ? join(process.env.FORMIDABLE_FROM, 'package.json') : import.meta.url).resolve(
      'formidable',
    );
  } catch {
    console.error('formidable is not installed here (npm i --no-save formidable@3, or FORMIDABLE_FROM=<folder>): busboy only');
    return null;
  }
})();
const loaded = formidableEntry && (await import(pathToFileURL(formidableEntry).href));
const formidable = loaded && (loaded.formidable ?? loaded.default.formidable);
const MultipartParser = loaded && (loaded.MultipartParser ?? loaded.default.MultipartParser);

// The body: one part `file` of SIZE bytes (the mission bench's content), as 64 KiB views of one 8 MiB block.
const boundary = '------------------------bench0123456789abcdef';
const block = Buffer.alloc(8 * 1024 * 1024);
for (let i = 0; i < block.length; i++) block[i] = (i * 31) & 0xff;
const head = Buffer.from(
  `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="bench.Altis.pbo"\r\n` +
    'content-type: application/octet-stream\r\n\r\n',
);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
function* body() {
  yield head;
  for (let sent = 0; sent < SIZE; sent += CHUNK) {
    const at = sent % block.length;
    yield block.subarray(at, at + Math.min(CHUNK, SIZE - sent));
  }
  yield tail;
}
const headers = { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + SIZE + tail.length) };
/** A request as the parsers see one: a readable of the body's chunks with its headers. */
const request = () => Object.assign(Readable.from(body(), { objectMode: false, highWaterMark: CHUNK }), { headers });
/** A sink that takes every chunk at once: no disk, so what remains is the parser's own work. */
const counter = () => {
  const sink = new Writable({
    highWaterMark: WRITE_BUFFER_BYTES,
    write(chunk, _enc, cb) {
      sink.bytes += chunk.length;
      cb();
    },
  });
  sink.bytes = 0;
  return sink;
};

const dir = await mkdtemp(join(tmpdir(), 'garrison-parsers-'));
const toFile = () => createWriteStream(join(dir, 'part.bin'), { highWaterMark: WRITE_BUFFER_BYTES });
const written = (sink) => sink.bytes ?? sink.bytesWritten;

// busboy as missions/upload.ts uses it: the part piped on with ordinary back-pressure.
const viaBusboy = (makeSink) =>
  new Promise((resolve, reject) => {
    const parser = Busboy({ headers, highWaterMark: WRITE_BUFFER_BYTES, fileHwm: WRITE_BUFFER_BYTES });
    let done;
    parser.on('file', (_name, stream) => {
      const sink = makeSink();
      done = pipeline(stream, sink).then(() => written(sink));
    });
    parser.on('close', () => done.then(resolve, reject));
    parser.on('error', reject);
    request().pipe(parser);
  });
// formidable as bench/formidable-upload.mjs uses it: the part through fileWriteStreamHandler.
const viaFormidable = async (makeSink) => {
  let sink;
  const form = formidable({ maxFileSize: SIZE, maxTotalFileSize: SIZE, fileWriteStreamHandler: () => (sink = makeSink()) });
  await form.parse(request());
  return written(sink);
};
// formidable's MultipartParser alone, without IncomingForm's handling of parts.
const formidableParserOnly = () =>
  new Promise((resolve, reject) => {
    const parser = new MultipartParser();
    parser.initWithBoundary(boundary);
    let bytes = 0;
    parser.on('data', ({ name, start, end }) => {
      if (name === 'partData') bytes += end - start;
    });
    parser.on('error', reject);
    parser.on('finish', () => resolve(bytes));
    request().pipe(parser);
  });

const sides = [
  ['busboy-sink', 'busboy, sink takes every chunk at once', () => viaBusboy(counter)],
  ['formidable-sink', 'formidable, sink takes every chunk at once', () => viaFormidable(counter)],
  ['formidable-parser', "formidable's MultipartParser alone (no IncomingForm)", formidableParserOnly],
  ['busboy-file', 'busboy, to a file (1 MiB writes)', () => viaBusboy(toFile)],
  ['formidable-file', 'formidable, to a file (fileWriteStreamHandler)', () => viaFormidable(toFile)],
]
  .filter(([id]) => (formidable || id.startsWith('busboy')) && (!only || only.includes(id)))
  .map(([id, name, run]) => ({ id, name, run, wall: [], cpu: [] }));

try {
  for (let round = -1; round < ROUNDS; round++) {
    // round -1 warms up and is not counted
    for (let i = 0; i < sides.length; i++) {
      const side = sides[(Math.max(round, 0) + i) % sides.length];
      const cpu = process.cpuUsage();
      const started = performance.now();
      const bytes = await side.run();
      const wall = performance.now() - started;
      const { user, system } = process.cpuUsage(cpu);
      if (bytes !== SIZE) throw new Error(`${side.id}: ${bytes} bytes of the part, not ${SIZE}`);
      if (round >= 0) (side.wall.push(wall), side.cpu.push((user + system) / 1000));
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mib = SIZE / 1024 / 1024;
console.log(
  `${mib} MiB file part in ${CHUNK / 1024} KiB chunks, ${ROUNDS} alternating rounds, medians:\n` +
    '| side | wall ms | MiB/s | CPU ms |\n|---|---|---|---|',
);
for (const side of sides)
  console.log(
    `| ${side.name} | ${median(side.wall).toFixed(0)} | ${(mib / (median(side.wall) / 1000)).toFixed(0)} ` +
      `| ${median(side.cpu).toFixed(0)} |`,
  );
console.log('each round, wall ms:');
for (const side of sides) console.log(`  ${side.id}: ${side.wall.map((ms) => ms.toFixed(0)).join(' ')}`);
