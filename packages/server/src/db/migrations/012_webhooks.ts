import type { Knex } from 'knex';

/**
 * Webhook endpoints, and the outbox of their deliveries: a row is written with the event's cause (in the
 * same transaction where there is one), claimed by the delivering instance, and keeps its attempts'
 * outcome as the endpoint's delivery log. Times are ISO strings, like the other tables'.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    t.increments('id').primary();
    t.string('url', 2000).notNullable();
    t.string('kind', 16).notNullable();
    t.text('events').notNullable(); // JSON array of event types
    t.text('server_ids').nullable(); // JSON array; null: every server
    t.boolean('enabled').notNullable();
    t.string('disabled_reason', 200).nullable();
    t.string('secret', 100).notNullable();
    t.string('previous_secret', 100).nullable();
    t.string('previous_secret_expires_at', 32).nullable();
    t.string('created_at', 32).notNullable();
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.increments('id').primary();
    t.integer('webhook_id').unsigned().notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    t.string('event_id', 40).notNullable();
    t.string('event_type', 40).notNullable();
    t.integer('server_id').nullable();
    t.text('payload').notNullable();
    t.string('status', 16).notNullable();
    t.integer('attempt').notNullable().defaultTo(0);
    t.string('next_attempt_at', 32).nullable();
    t.string('claimed_until', 32).nullable();
    t.integer('response_status').nullable();
    t.string('response_snippet', 500).nullable();
    t.string('error', 500).nullable();
    t.integer('duration_ms').nullable();
    t.string('delivered_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.index(['status', 'next_attempt_at']);
    t.index(['webhook_id', 'id']);
    t.unique(['webhook_id', 'event_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhooks');
}
