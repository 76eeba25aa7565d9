import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('player_history', (t) => {
    t.increments('id').primary();
    t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('slot_id', 16).notNullable();
    t.string('player_name', 255).notNullable();
    t.string('guid', 64).nullable();
    t.string('joined_at', 32).notNullable();
    t.string('left_at', 32).nullable();
    t.index(['server_id', 'id']);
  });
  await knex.schema.createTable('bans', (t) => {
    t.increments('id').primary();
    t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('guid', 64).notNullable();
    t.string('name', 255).nullable();
    t.string('reason', 500).notNullable();
    t.string('banned_by', 64).notNullable();
    t.string('ban_type', 8).notNullable();
    t.integer('duration_minutes').notNullable();
    t.string('expires_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.index(['server_id', 'active']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('bans');
  await knex.schema.dropTableIfExists('player_history');
}
