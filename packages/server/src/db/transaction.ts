import type { Knex } from 'knex';
import type { Database } from './connection.js';

/** Runs `work` in one transaction: the writes it passes `trx` to stand or fall together. */
export function inTransaction<T>(db: Database, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.knex.transaction(work);
}
