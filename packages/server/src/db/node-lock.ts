import { createHash } from 'node:crypto';
import { createConnection, type Connection } from 'mysql2/promise';
import type { Knex } from 'knex';
import { SettingError } from '../setting-specs.js';
import type { Logger } from 'pino';

/**
 * One process per node id on a MySQL/MariaDB database (in a cluster or not): a named lock of the database, held by a connection of its own
 * for as long as the process lives. The database lets it go the moment that connection ends, a SIGKILL
 * included, so a node that died can start again at once while a second live one is refused.
 */
export class NodeLock {
  private constructor(
    private readonly connection: Connection,
    private readonly name: string,
    private readonly logger: Logger,
  ) {}

  static async take(knex: Knex, nodeId: string, logger: Logger): Promise<NodeLock> {
    const config = knex.client.config.connection as { host: string; port: number; user: string; password: string; database: string };
    const connection = await createConnection({
      host: config.host,
      port: config.port,
      user: config.user,
      password: config.password,
      database: config.database,
    });
    connection.on('error', () => {}); // a lost connection is found by held()
    // Named locks are the database server's, not one database's: the name says which database too (64 characters at most).
    const name = `garrison.node.${createHash('sha256').update(`${config.database}/${nodeId}`).digest('hex').slice(0, 40)}`;
    const [rows] = (await connection.query('SELECT GET_LOCK(?, 0) AS got', [name])) as unknown as [{ got: number | null }[]];
    if (rows[0]?.got !== 1) {
      const unsaid = (err: unknown) => `it holds the lock ${name}; who, the database did not say: ${(err as Error).message}`;
      const holder = await describeHolder(connection, knex, name, nodeId).catch(unsaid);
      await connection.end().catch((err: unknown) => logger.debug({ err }, 'the connection refused the node lock did not end cleanly'));
      throw new SettingError(
        `another instance is running with node id ${nodeId} on this database (${holder}): stop it first, or give each ` +
          `instance its own GARRISON_NODE_ID`,
      );
    }
    return new NodeLock(connection, name, logger);
  }

  /** Whether the lock is still this process's (false after its connection was lost). */
  async held(): Promise<boolean> {
    try {
      const [rows] = (await this.connection.query('SELECT IS_USED_LOCK(?) = CONNECTION_ID() AS mine', [this.name])) as unknown as [
        { mine: number | null }[],
      ];
      return rows[0]?.mine === 1;
    } catch (err) {
      // Its connection is gone (a database restart, a network cut), and the lock with it.
      this.logger.warn({ err }, 'the node lock could not be checked');
      return false;
    }
  }

  async release(): Promise<void> {
    // After the connection was lost both fail, and the lock went with the connection.
    const gone = (err: unknown) => this.logger.debug({ err }, 'the node lock went with its connection');
    await this.connection.query('SELECT RELEASE_LOCK(?)', [this.name]).catch(gone);
    await this.connection.end().catch(gone);
  }
}

/**
 * Which process holds a node's lock, as far as the database can say: the connection holding it and
 * where from, and what that node wrote in its row when it started (its start time and address).
 */
async function describeHolder(connection: Connection, knex: Knex, name: string, nodeId: string): Promise<string> {
  const [held] = (await connection.query('SELECT IS_USED_LOCK(?) AS id', [name])) as unknown as [{ id: number | null }[]];
  const id = held[0]?.id;
  const parts = [`it holds the lock ${name}`];
  if (id != null) {
    // Without the PROCESS privilege only the user's own connections are listed: the peers' usually are.
    const [hosts] = (await connection.query('SELECT HOST AS host FROM information_schema.PROCESSLIST WHERE ID = ?', [id])) as unknown as [
      { host: string }[],
    ];
    parts.push(`database connection ${id}${hosts[0] ? ` from ${hosts[0].host}` : ''}`);
  }
  const row: { started_at: string; url: string } | undefined = await knex('nodes').where({ id: nodeId }).first('started_at', 'url');
  if (row) parts.push(`started ${row.started_at}${row.url ? `, listening at ${row.url}` : ''}`);
  return parts.join('; ');
}
