import type { Knex } from 'knex';
import { GENESIS_HASH, hashOf, type ChainedFields } from '../../audit/chain.js';

interface OldRow {
  id: number;
  server_id: number;
  event_type: string;
  actor: string | null;
  actor_kind: string;
  actor_id: string | null;
  detail: string;
  timestamp: string;
  server_name: string | null;
}

const BATCH = 500;

/**
 * One audit trail for the whole service. `server_events` belonged to its server (NOT NULL, ON DELETE
 * CASCADE: deleting a server deleted its history); `audit_entries` names its server and its target as
 * plain values, so that history outlives what it names, and chains each entry to the one before by hash
 * (`audit_head` holds the last hash, and the hash of the last pruned entry). Today's entries are kept,
 * in their order and with their ids, and chained as they are copied.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_entries', (t) => {
    t.integer('id').unsigned().primary();
    t.integer('server_id').unsigned().nullable();
    t.string('event_type', 32).notNullable();
    t.string('actor', 64).nullable();
    t.string('actor_kind', 16).notNullable();
    t.string('actor_id', 64).nullable();
    t.string('target_kind', 16).notNullable();
    t.string('target_id', 64).nullable();
    t.string('target_name', 200).nullable();
    t.text('detail').notNullable();
    t.string('timestamp', 32).notNullable();
    t.string('prev_hash', 64).notNullable();
    t.string('hash', 64).notNullable();
    t.index(['server_id', 'event_type', 'id']);
    t.index(['timestamp']);
    t.index(['actor']);
  });
  await knex.schema.createTable('audit_head', (t) => {
    t.integer('id').unsigned().primary();
    t.integer('last_id').unsigned().notNullable();
    t.string('last_hash', 64).notNullable();
    t.integer('anchor_id').unsigned().notNullable();
    t.string('anchor_hash', 64).notNullable();
  });
  let prev = GENESIS_HASH;
  let lastId = 0;
  for (;;) {
    const rows = (await knex('server_events as e')
      .leftJoin('servers as s', 's.id', 'e.server_id')
      .select(
        'e.id',
        'e.server_id',
        'e.event_type',
        'e.actor',
        'e.actor_kind',
        'e.actor_id',
        'e.detail',
        'e.timestamp',
        's.name as server_name',
      )
      .where('e.id', '>', lastId)
      .orderBy('e.id')
      .limit(BATCH)) as OldRow[];
    if (!rows.length) break;
    const chained = rows.map((row) => {
      const fields: ChainedFields = {
        id: row.id,
        server_id: row.server_id,
        event_type: row.event_type,
        actor: row.actor,
        actor_kind: row.actor_kind,
        actor_id: row.actor_id,
        target_kind: 'server',
        target_id: String(row.server_id),
        target_name: row.server_name,
        detail: row.detail,
        timestamp: row.timestamp,
        prev_hash: prev,
      };
      prev = hashOf(fields);
      return { ...fields, hash: prev };
    });
    await knex('audit_entries').insert(chained);
    lastId = rows[rows.length - 1].id;
  }
  await knex('audit_head').insert({ id: 1, last_id: lastId, last_hash: prev, anchor_id: 0, anchor_hash: GENESIS_HASH });
  await knex.schema.dropTable('server_events');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('server_events', (t) => {
    t.increments('id').primary();
    t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('event_type', 32).notNullable();
    t.string('actor', 64).nullable();
    t.text('detail').notNullable();
    t.string('timestamp', 32).notNullable();
    t.string('actor_kind', 16).notNullable().defaultTo('system');
    t.string('actor_id', 64).nullable();
    t.index(['server_id', 'event_type', 'id']);
  });
  // Only what the old table could hold: entries of servers that still exist.
  await knex.raw(
    'INSERT INTO server_events (id, server_id, event_type, actor, detail, timestamp, actor_kind, actor_id) ' +
      'SELECT a.id, a.server_id, a.event_type, a.actor, a.detail, a.timestamp, a.actor_kind, a.actor_id ' +
      'FROM audit_entries a JOIN servers s ON s.id = a.server_id',
  );
  await knex.schema.dropTable('audit_head');
  await knex.schema.dropTable('audit_entries');
}
