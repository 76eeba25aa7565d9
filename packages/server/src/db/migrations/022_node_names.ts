import type { Knex } from 'knex';

/** The tables whose rows name the node that acts on them, under the name the code and API gave it. */
const OWNED = ['processes', 'schedule_runs', 'backups'] as const;

/**
 * One word for one concept: the node. Three tables still said `instance_id` for the node that owns a
 * process, runs a schedule or writes a backup, where the servers table, the API and the docs say
 * `node_id`. A plain column rename (SQLite ≥ 3.25, MariaDB ≥ 10.5): no table is rebuilt, so no row
 * cascades and the indexes follow the column.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of OWNED) await knex.raw('ALTER TABLE ?? RENAME COLUMN ?? TO ??', [table, 'instance_id', 'node_id']);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of OWNED) await knex.raw('ALTER TABLE ?? RENAME COLUMN ?? TO ??', [table, 'node_id', 'instance_id']);
}
