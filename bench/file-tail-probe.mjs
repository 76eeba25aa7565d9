#!/usr/bin/env node
// The floor of a log line's way before Garrison touches it: a process of its own that follows the game's
// `.rpt` the plainest way (fs.watch, read what was added) and notes, for every `… at <ms>` line, how long
// after the game stamped it the line could be read. Started by bench/log-fanout.mjs; reports over IPC.
import { watch } from 'node:fs';
import { open } from 'node:fs/promises';

const fh = await open(process.argv[2], 'r');
let position = (await fh.stat()).size;
let rest = '';
let reading = false;
let again = false;
let samples = [];
const buffer = Buffer.alloc(1 << 20);

async function readAdded() {
  if (reading) return void (again = true);
  reading = true;
  do {
    again = false;
    for (;;) {
      const { bytesRead } = await fh.read(buffer, 0, buffer.length, position);
      if (!bytesRead) break;
      position += bytesRead;
      const lines = (rest + buffer.toString('utf8', 0, bytesRead)).split('\n');
      rest = lines.pop();
      const now = performance.timeOrigin + performance.now();
      for (const line of lines) {
        const m = / at (\d+(?:\.\d+)?)$/.exec(line);
        if (m) samples.push([Number(m[1]), Math.round((now - Number(m[1])) * 10) / 10]);
      }
    }
  } while (again);
  reading = false;
}

const watcher = watch(process.argv[2], () => void readAdded());
process.on('message', (m) => {
  if (m === 'take') {
    process.send(samples);
    samples = [];
  } else if (m === 'stop') {
    watcher.close();
    void fh.close().then(() => process.exit(0));
  }
});
process.send('ready');
