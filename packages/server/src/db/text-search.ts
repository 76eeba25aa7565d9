import type { Knex } from 'knex';

/**
 * Rows whose `column` contains `text` as it is: `%` and `_` in it are searched for, not wildcards.
 * `!` escapes them, the one escape character SQLite and MariaDB read the same way.
 */
export function whereContains<Q extends Knex.QueryBuilder>(query: Q, column: string, text: string): Q {
  return query.andWhereRaw(`?? LIKE ? ESCAPE '!'`, [column, `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`]) as Q;
}
