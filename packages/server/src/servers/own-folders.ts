import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ACTIVE_STATUSES, ApiError } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories, ServerRow } from '../db/repositories/index.js';
import type { DataSettings } from '../db/settings.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { serverContext } from './context.js';
import { ServerLocks } from './locks.js';

/**
 * The upgrade to one set of folders per server (migration 018): a server that shared its installation's
 * folders with another, and now has a key of its own, gets its files copied into its own folders by its
 * adapter. Done by the node that owns the server (the files are on its host), once: at the service's
 * start for a server without a process, otherwise at its next start, before its config files are written
 * (a game still running from the shared folder keeps writing there until then). The copy leaves the
 * shared files as they are and is made again whole after an interruption; the record says it is done
 * only after it is.
 */
@injectable()
export class OwnFolders implements Lifecycle {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(ServerLocks) private readonly locks: ServerLocks,
  ) {}

  async start(): Promise<void> {
    for (const row of await this.repos.servers.foldersPending(this.nodeId)) {
      if ((ACTIVE_STATUSES as readonly string[]).includes(row.status)) {
        this.logger.info(
          { serverId: row.id },
          'server runs from the folders it shares with another server of its installation; its files move into its own ' +
            'folders at its next start',
        );
        continue;
      }
      // A failure leaves the work pending: it is tried again at the server's start and the service's next start.
      await this.locks
        .run(row.id, () => this.separateLocked(row.id))
        .catch((err: Error) =>
          this.logger.error({ serverId: row.id, err: err.message }, "could not copy the server's files into its own folders"),
        );
    }
  }

  /** Under the server's lock (a start holds it). */
  async separateLocked(serverId: number): Promise<void> {
    const row = await this.repos.servers.find(serverId);
    if (!row?.folders_pending || row.node_id !== this.nodeId) return;
    const written = await this.copy(row).catch((err: Error) => {
      throw new ApiError('CONFIG_WRITE_ERROR', `the server's files could not be copied into its own folders: ${err.message}`);
    });
    await this.repos.servers.update(serverId, { folders_pending: false });
    this.logger.info(
      { serverId, folders: written },
      "upgrade: the server shared its installation's folders with another; its files were copied into folders of its own (the " +
        'logs the game wrote stay in the shared folder)',
    );
  }

  private copy(row: ServerRow): Promise<string[]> {
    const own = serverContext(row, this.settings.dataDir);
    const separate = this.adapters.get(row.game_type).capabilities.process_config?.separateFolders;
    return separate ? separate({ ...own, installationKey: null }, own) : Promise.resolve([]);
  }
}
