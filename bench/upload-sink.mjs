// The mission-upload benchmark's transport baseline: a bare Node HTTP server that streams each request
// body into a file, with no parsing, no auth and no database; prints its URL, then serves until killed.
import { createServer } from 'node:http';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';

const dir = process.argv[2];
let n = 0;
const server = createServer(async (req, res) => {
  await pipeline(req, createWriteStream(join(dir, `sink-${n++}.bin`), { highWaterMark: 1024 * 1024 }));
  res.writeHead(201).end();
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
