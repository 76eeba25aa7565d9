// One backup of FOLDER into TARGET by Garrison's archive writer (the built one), in a process of its own;
// prints the peak growth of its RSS over the run, sampled every 20 ms.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { choose, writeArchive } from '../packages/server/dist/backups/archive.js';

const [folder, target] = process.argv.slice(2);
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const manifest = join(dirname(target), `.manifest-${process.pid}.json`);
await writeFile(manifest, '{}');
const parts = await choose([{ name: 'profile', root: folder }]);
await writeArchive(parts, manifest, target, () => {}, new AbortController().signal);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ rssGrowthMiB: (peak - before) / 1048576 }));
