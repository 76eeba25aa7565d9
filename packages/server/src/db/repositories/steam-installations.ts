import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/** An installation a SteamCMD install began on and has not completed since: its game must not be started. */
export interface IncompleteInstallRow {
  node_id: string;
  install_dir: string;
  /** The install job that began it (the latest one). */
  job_id: number;
  since: string;
}

/** An installation is a folder of one node: the key is fixed-length, whatever the path's length. */
const keyOf = (nodeId: string, installDir: string) => createHash('sha256').update(`${nodeId}\n${installDir}`).digest('hex');

/**
 * The steam_installations table: the installations whose last install did not complete (a download cut
 * short leaves a half-written server behind). Marked before SteamCMD writes into one, cleared once an
 * install of it succeeded: a crash in between leaves the mark.
 */
export class SteamInstallationRepository {
  constructor(private readonly knex: Knex) {}

  async incomplete(nodeId: string, installDir: string): Promise<IncompleteInstallRow | null> {
    const row = await this.knex('steam_installations')
      .where({ key: keyOf(nodeId, installDir) })
      .first();
    return row ? { node_id: row.node_id, install_dir: row.install_dir, job_id: Number(row.job_id), since: row.since } : null;
  }

  /** Marks an installation incomplete for `mark.job_id`; answers the mark it replaced (null when it was complete). */
  async markIncomplete(mark: IncompleteInstallRow): Promise<IncompleteInstallRow | null> {
    const previous = await this.incomplete(mark.node_id, mark.install_dir);
    await this.knex('steam_installations')
      .insert({ key: keyOf(mark.node_id, mark.install_dir), ...mark })
      .onConflict('key')
      .merge();
    return previous;
  }

  /** Puts back what `markIncomplete` replaced: the earlier mark, or none (the installation was complete). */
  async restore(nodeId: string, installDir: string, previous: IncompleteInstallRow | null): Promise<void> {
    if (previous) await this.markIncomplete(previous);
    else await this.clear(nodeId, installDir);
  }

  async clear(nodeId: string, installDir: string): Promise<void> {
    await this.knex('steam_installations')
      .where({ key: keyOf(nodeId, installDir) })
      .delete();
  }
}
