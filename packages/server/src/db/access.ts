import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { RateLimiterMySQL, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database, Dialect } from './connection.js';
import { inTransaction } from './transaction.js';
import { backupDatabase } from './backup.js';
import { NodeLock } from './node-lock.js';
import { RateLimitRepository } from './repositories/rate-limits.js';
import { TableVersions } from './table-versions.js';

/**
 * What services may ask of the database beyond its repositories: a transaction for the repositories'
 * writes to share, which database it is, and what only the database itself does (its online backup, a
 * named lock, a store for shared counters). The connection stays in db/.
 */
export class DatabaseAccess {
  constructor(private readonly db: Database) {}

  get dialect(): Dialect {
    return this.db.dialect;
  }

  /** Runs `work` in one transaction (again after a lost deadlock): the repository calls given `trx` stand or fall together. */
  inTransaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  /** Counts the writes to each table from now on: what tells a kept read (db/read-cache.ts) that it is out of date. */
  watchTableVersions(): TableVersions {
    return TableVersions.watching(this.db.knex);
  }

  /** SQLite's online backup into `target` (checked before it takes the name); MySQL/MariaDB refuse, naming their own tool. */
  backupTo(target: string): Promise<{ path: string; bytes: number }> {
    return backupDatabase(this.db, target);
  }

  /** The named lock that makes a node id one process's on a MySQL/MariaDB database. */
  takeNodeLock(nodeId: string, logger: Logger): Promise<NodeLock> {
    return NodeLock.take(this.db.knex, nodeId, logger);
  }

  /** A limiter counted in the shared database's rate-limits table (rate-limiter-flexible's MySQL store, over this pool). */
  sharedRateLimiter(options: {
    keyPrefix: string;
    points: number;
    duration: number;
    insuranceLimiter: RateLimiterAbstract;
  }): RateLimiterAbstract {
    return new RateLimiterMySQL({
      storeClient: this.db.knex,
      storeType: 'knex',
      dbName: (this.db.knex.client.config.connection as { database: string }).database,
      tableName: RateLimitRepository.TABLE,
      tableCreated: true, // made by the migrations
      clearExpiredByTimeout: false, // pruned by a job of the job runner instead
      ...options,
    });
  }
}
