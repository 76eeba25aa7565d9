import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('log_lines', (t) => {
    t.bigIncrements('id').primary();
    t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('timestamp', 32).notNullable();
    t.string('level', 8).notNullable();
    t.text('message').notNullable();
    t.index(['server_id', 'id']);
  });
  await knex.schema.createTable('metrics', (t) => {
    t.bigIncrements('id').primary();
    t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('timestamp', 32).notNullable();
    t.double('cpu_percent').notNullable();
    t.double('ram_mb').notNullable();
    t.integer('player_count').nullable();
    t.index(['server_id', 'timestamp']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('metrics');
  await knex.schema.dropTableIfExists('log_lines');
}
