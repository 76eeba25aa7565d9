import type { Knex } from 'knex';
import { DatabaseClock } from '../database-clock.js';

// The background-jobs feature's migrations that rewrite rows (its module lists them): rows are db/'s to touch.

/**
 * Leases by the database's clock: `lease_until` was ISO text by the renewing node's clock (`…T…Z`), and is
 * now the database's own UTC form (`YYYY-MM-DD HH:MM:SS.mmm`, as DatabaseClock writes it), compared in SQL
 * with the database's now. A lease left by the former form is rewritten to the same instant in the new one.
 */
export const leaseByDatabaseTime = {
  async up(knex: Knex): Promise<void> {
    await knex('background_jobs')
      .whereNotNull('lease_until')
      .update({ lease_until: knex.raw("REPLACE(REPLACE(lease_until, 'T', ' '), 'Z', '')") });
  },
  async down(knex: Knex): Promise<void> {
    const rows: { id: number; lease_until: string }[] = await knex('background_jobs')
      .whereNotNull('lease_until')
      .select('id', 'lease_until');
    for (const row of rows) {
      await knex('background_jobs')
        .where({ id: row.id })
        .update({ lease_until: `${row.lease_until.replace(' ', 'T')}Z` });
    }
  },
};

/**
 * A queued job's deadline (`queued_until`, by the database's clock like the lease): past it, the sweep
 * fails the job JOB_EXPIRED. The jobs queued before it get the default limit (24 hours) from now.
 */
export const queueDeadline = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('background_jobs', (t) => {
      t.string('queued_until', 32).nullable();
      t.index(['status', 'queued_until']);
    });
    await knex('background_jobs')
      .where({ status: 'queued' })
      .update({ queued_until: new DatabaseClock(knex).now(24 * 3_600_000) });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('background_jobs', (t) => {
      t.dropIndex(['status', 'queued_until']);
      t.dropColumn('queued_until');
    });
  },
};
