import type { Knex } from 'knex';

/**
 * Times by the database's clock, in SQL, for what several hosts must agree on (heartbeats, leases):
 * the hosts' own clocks may differ, the database has one. Stored as UTC `YYYY-MM-DD HH:MM:SS.mmm`.
 */
export class DatabaseClock {
  private readonly mysql: boolean;

  constructor(private readonly knex: Knex) {
    this.mysql = String(knex.client.config.client).startsWith('mysql');
  }

  /** The database's time now, plus `offsetMs`. */
  now(offsetMs = 0): Knex.Raw {
    if (this.mysql) return this.knex.raw('DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND)', [Math.round(offsetMs * 1000)]);
    return this.knex.raw("strftime('%Y-%m-%d %H:%M:%f', 'now', ?)", [`${offsetMs >= 0 ? '+' : ''}${offsetMs / 1000} seconds`]);
  }

  /** The database's time now, in milliseconds since the epoch. */
  epochMs(): Knex.Raw {
    if (this.mysql) return this.knex.raw('ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)');
    return this.knex.raw("ROUND((julianday('now') - 2440587.5) * 86400000)");
  }

  /** Milliseconds from a stored time of `column` to the database's now. */
  ageMs(column: string): Knex.Raw {
    if (this.mysql) return this.knex.raw('TIMESTAMPDIFF(MICROSECOND, ??, UTC_TIMESTAMP(3)) / 1000', [column]);
    return this.knex.raw("(julianday('now') - julianday(??)) * 86400000", [column]);
  }
}

/** A stored database time (UTC) as ISO 8601. */
export const isoOfDatabaseTime = (value: string): string => new Date(`${value.replace(' ', 'T')}Z`).toISOString();
