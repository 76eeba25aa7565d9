import { createHash } from 'node:crypto';
import { createConnection, type Connection } from 'mysql2/promise';
import type { Knex } from 'knex';
import { SettingError } from '../settings.js';

/**
 * One process per node id in a cluster: a named lock of the database, held by a connection of its own
 * for as long as the process lives. The database lets it go the moment that connection ends, a SIGKILL
 * included, so a node that died can start again at once while a second live one is refused.
 */
export class NodeLock {
  private constructor(
    private readonly connection: Connection,
    private readonly name: string,
  ) {}

  static async take(knex: Knex, nodeId: string): Promise<NodeLock> {
    const config = knex.client.config.connection as { host: string; port: number; user: string; password: string; database: string };
    const connection = await createConnection({ host: config.host, port: config.port, user: config.user, password: config.password, database: config.database });
    connection.on('error', () => {}); // a lost connection is found by held()
    // Named locks are the database server's, not one database's: the name says which database too (64 characters at most).
    const name = `garrison.node.${createHash('sha256').update(`${config.database}/${nodeId}`).digest('hex').slice(0, 40)}`;
    const [rows] = (await connection.query('SELECT GET_LOCK(?, 0) AS got', [name])) as unknown as [{ got: number | null }[]];
    if (rows[0]?.got !== 1) {
      await connection.end().catch(() => {});
      throw new SettingError(`another instance is running with node id ${nodeId} on this database (it holds the lock ${name}): give each instance its own GARRISON_NODE_ID`);
    }
    return new NodeLock(connection, name);
  }

  /** Whether the lock is still this process's (false after its connection was lost). */
  async held(): Promise<boolean> {
    try {
      const [rows] = (await this.connection.query('SELECT IS_USED_LOCK(?) = CONNECTION_ID() AS mine', [this.name])) as unknown as [{ mine: number | null }[]];
      return rows[0]?.mine === 1;
    } catch {
      return false;
    }
  }

  async release(): Promise<void> {
    await this.connection.query('SELECT RELEASE_LOCK(?)', [this.name]).catch(() => {});
    await this.connection.end().catch(() => {});
  }
}
