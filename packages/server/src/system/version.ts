import { readFileSync } from 'node:fs';

/** The server package's version, as the API and the nodes table report it. */
export const SERVICE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;
