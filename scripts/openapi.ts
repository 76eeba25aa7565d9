// Writes docs/openapi.json from the running service's own document: `npm run openapi`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startServer } from '../packages/server/src/index.js';

const dataDir = await mkdtemp(join(tmpdir(), 'garrison-openapi-'));
const server = await startServer({ port: 0, dataDir, adminPassword: 'unused-password', logger: pino({ level: 'silent' }) });
try {
  const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
  const target = new URL('../docs/openapi.json', import.meta.url);
  await writeFile(target, JSON.stringify(doc, null, 2) + '\n');
  console.log(`wrote ${target.pathname}`);
} finally {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
