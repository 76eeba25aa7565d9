import type { Knex } from 'knex';
import { DatabaseClock } from '../db/database-clock.js';

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
