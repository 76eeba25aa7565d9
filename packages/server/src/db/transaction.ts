import type { Knex } from 'knex';
import type { Database } from './connection.js';

/** MySQL/MariaDB roll a transaction back whole when it loses a deadlock: it can simply run again. */
const RETRIED = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
const ATTEMPTS = 3;

/**
 * Runs `work` in one transaction: the writes it passes `trx` to stand or fall together. A transaction
 * that lost a deadlock is run again (up to three times in all), so that an audit entry is never dropped
 * because a delivering worker touched the same table at the same moment.
 */
export async function inTransaction<T>(db: Database, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.knex.transaction(work);
    } catch (err) {
      if (attempt >= ATTEMPTS || !RETRIED.has((err as { code?: string }).code ?? '')) throw err;
    }
  }
}
