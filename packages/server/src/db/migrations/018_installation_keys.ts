import { dirname, resolve } from 'node:path';
import type { Knex } from 'knex';

/**
 * One server, one set of folders: a server made on an installation another server already used gets a key
 * of its own (`installation_key`, its id), from which its adapter names its own folders there (a profile
 * folder beside the game's usual one). Kept on the record, so that deleting the first server never moves
 * the files of the others.
 *
 * Servers that shared an installation before this: the first one (lowest id) keeps the usual folders; each
 * later one gets its key and `folders_pending`, and the node that owns it copies its files into its own
 * folders (once, at its start or at the server's next start: see servers/own-folders.ts). Only the
 * database changes here: the files are on the owning node's host.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (t) => {
    t.string('installation_key', 32).nullable();
    t.boolean('folders_pending').notNullable().defaultTo(false);
  });
  const rows: { id: number; exe_path: string; node_id: string | null }[] = await knex('servers')
    .select('id', 'exe_path', 'node_id')
    .orderBy('id');
  const seen = new Set<string>();
  for (const row of rows) {
    const installation = `${row.node_id ?? ''}\n${resolve(dirname(row.exe_path))}`;
    if (!seen.has(installation)) {
      seen.add(installation);
      continue;
    }
    await knex('servers')
      .where({ id: row.id })
      .update({ installation_key: String(row.id), folders_pending: true });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (t) => {
    t.dropColumn('folders_pending');
    t.dropColumn('installation_key');
  });
}
