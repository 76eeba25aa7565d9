import type { Knex } from 'knex';
import type { ServerPatch } from './servers.js';

export interface SectionRow {
  id: number;
  server_id: number;
  section: string;
  /** The section's fields (stored as JSON text, so that SQLite and MariaDB store them alike). */
  data: Record<string, unknown>;
  config_version: number;
}

const toSection = (row: Record<string, unknown>): SectionRow => ({
  ...(row as unknown as SectionRow),
  data: JSON.parse(row.data as string) as SectionRow['data'],
});

/** A server's config version: the sum of its sections' versions, which grows with every change to any. */
export const configVersionOf = (sections: readonly Pick<SectionRow, 'config_version'>[]) =>
  sections.reduce((sum, s) => sum + s.config_version, 0);

const COLUMNS = ['id', 'server_id', 'section', 'data', 'config_version'] as const;

/** The config_sections table: each server's sections as JSON text, with their versions. */
export class ConfigSectionRepository {
  constructor(private readonly knex: Knex) {}

  async forServer(serverId: number): Promise<SectionRow[]> {
    return (await this.knex('config_sections').select(COLUMNS).where('server_id', serverId).orderBy('id')).map(toSection);
  }

  /** The sections of these servers (all of them when left out), for what the list shows of each. */
  async ofServers(serverIds?: number[]): Promise<SectionRow[]> {
    const query = this.knex('config_sections').select(COLUMNS).orderBy('id');
    return (await (serverIds ? query.whereIn('server_id', serverIds) : query)).map(toSection);
  }

  async find(serverId: number, section: string): Promise<SectionRow | undefined> {
    const row = await this.knex('config_sections').select(COLUMNS).where({ server_id: serverId, section }).first();
    return row ? toSection(row) : undefined;
  }

  /**
   * Writes a section only if its version is still `expected` (optimistic locking), with the fields kept on
   * the server record, in one transaction. False when another write came first.
   */
  /** `trx`: the transaction of the whole change (with its audit entry). */
  async updateVersioned(
    row: SectionRow,
    expected: number,
    data: SectionRow['data'],
    recordPatch: ServerPatch,
    trx: Knex.Transaction,
  ): Promise<boolean> {
    const updated = await trx('config_sections')
      .where({ id: row.id, config_version: expected })
      .update({ data: JSON.stringify(data), config_version: expected + 1 });
    if (updated === 0) return false;
    if (Object.keys(recordPatch).length) await trx('servers').where({ id: row.server_id }).update(recordPatch);
    return true;
  }
}
