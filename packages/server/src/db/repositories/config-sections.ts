import type { Knex } from 'knex';
import { ConfigSectionModel } from '../models/ConfigSectionModel.js';
import { ServerModel } from '../models/ServerModel.js';
import type { ServerRow } from './servers.js';

export type SectionRow = Pick<ConfigSectionModel, 'id' | 'server_id' | 'section' | 'data' | 'config_version'>;

/** A server's config version: the sum of its sections' versions, which grows with every change to any. */
export const configVersionOf = (sections: readonly Pick<SectionRow, 'config_version'>[]) => sections.reduce((sum, s) => sum + s.config_version, 0);

/** The config_sections table: each server's sections as JSON text, with their versions. */
export class ConfigSectionRepository {
  private readonly Section: typeof ConfigSectionModel;
  private readonly Server: typeof ServerModel;

  constructor(knex: Knex) {
    this.Section = ConfigSectionModel.bindKnex(knex);
    this.Server = ServerModel.bindKnex(knex);
  }

  async forServer(serverId: number): Promise<SectionRow[]> {
    return this.Section.query().where('server_id', serverId).orderBy('id');
  }

  /** The sections of these servers (all of them when left out), for what the list shows of each. */
  async ofServers(serverIds?: number[]): Promise<SectionRow[]> {
    const query = this.Section.query().select('id', 'server_id', 'section', 'data', 'config_version').orderBy('id');
    return serverIds ? query.whereIn('server_id', serverIds) : query;
  }

  async find(serverId: number, section: string): Promise<SectionRow | undefined> {
    return this.Section.query().where({ server_id: serverId, section }).first();
  }

  /**
   * Writes a section only if its version is still `expected` (optimistic locking), with the fields kept on
   * the server record, in one transaction. False when another write came first.
   */
  /** `trx`: the transaction of the whole change (with its audit entry). */
  async updateVersioned(row: SectionRow, expected: number, data: string, recordPatch: Partial<ServerRow>, trx: Knex.Transaction): Promise<boolean> {
    const updated = await this.Section.query(trx).where({ id: row.id, config_version: expected }).patch({ data, config_version: expected + 1 });
    if (updated === 0) return false;
    if (Object.keys(recordPatch).length) await this.Server.query(trx).findById(row.server_id).patch(recordPatch);
    return true;
  }
}
