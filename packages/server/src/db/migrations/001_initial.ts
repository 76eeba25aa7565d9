import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('username', 64).notNullable();
    t.string('password_hash', 255).notNullable();
    t.string('role', 16).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('last_login', 32).nullable();
  });
  // Usernames are unique regardless of case on every database (MariaDB's collation already does this).
  if (knex.client.config.client === 'mysql2') await knex.schema.alterTable('users', (t) => t.unique(['username']));
  else await knex.raw('CREATE UNIQUE INDEX users_username_unique ON users (username COLLATE NOCASE)');

  await knex.schema.createTable('servers', (t) => {
    t.increments('id').primary();
    t.string('name', 100).notNullable();
    t.text('description').nullable();
    t.string('game_type', 64).notNullable();
    t.string('status', 16).notNullable().defaultTo('stopped');
    t.integer('pid').nullable();
    t.text('exe_path').notNullable();
    t.integer('game_port').notNullable();
    t.integer('rcon_port').notNullable();
    t.boolean('auto_restart').notNullable().defaultTo(false);
    t.integer('max_restarts').notNullable().defaultTo(3);
    t.integer('restart_count').notNullable().defaultTo(0);
    t.string('started_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
  });

  await knex.schema.createTable('config_sections', (t) => {
    t.increments('id').primary();
    t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('section', 64).notNullable();
    t.text('data', 'longtext').notNullable();
    t.integer('config_version').notNullable();
    t.unique(['server_id', 'section']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('config_sections');
  await knex.schema.dropTableIfExists('servers');
  await knex.schema.dropTableIfExists('users');
}
