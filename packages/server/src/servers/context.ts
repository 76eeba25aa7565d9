import { dirname, join } from 'node:path';
import type { ServerContext } from '@garrison/core';
import type { ServerRow } from '../db/repositories/servers.js';

/** A server's own folder under the data dir; deleting the server removes exactly this. */
export function serverDir(dataDir: string, id: number): string {
  return join(dataDir, 'servers', String(id));
}

/** What an adapter gets to know about a server. */
export function serverContext(row: ServerRow, dataDir: string): ServerContext {
  return {
    server: {
      id: row.id,
      name: row.name,
      exe_path: row.exe_path,
      game_port: row.game_port,
      rcon_port: row.rcon_port,
      headless_clients: row.headless_clients,
    },
    serverDir: serverDir(dataDir, row.id),
    exeDir: dirname(row.exe_path),
    installationKey: row.installation_key ?? null,
  };
}
