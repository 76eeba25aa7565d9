import type { Knex } from 'knex';

/** The one Steam account, its password and pending Guard code sealed (never in clear on disk). */
export interface SteamAccountRow {
  username: string;
  password_sealed: string;
  guard_code_sealed: string | null;
  updated_at: string;
}

/** The steam_account table: one row (id 1) or none. */
export class SteamAccountRepository {
  constructor(private readonly knex: Knex) {}

  async get(trx?: Knex.Transaction): Promise<SteamAccountRow | null> {
    const row = await (trx ?? this.knex)('steam_account').select('username', 'password_sealed', 'guard_code_sealed', 'updated_at').first();
    return row ?? null;
  }

  async put(row: SteamAccountRow, trx: Knex.Transaction): Promise<void> {
    await trx('steam_account')
      .insert({ id: 1, ...row })
      .onConflict('id')
      .merge();
  }

  async remove(trx: Knex.Transaction): Promise<boolean> {
    return (await trx('steam_account').where({ id: 1 }).delete()) > 0;
  }

  /**
   * Takes the pending Guard code: cleared only if it is still the one read (a PUT meanwhile keeps its
   * own), so that each code is used by one login alone. True when this caller took it.
   */
  async takeGuardCode(sealed: string): Promise<boolean> {
    return (await this.knex('steam_account').where({ id: 1, guard_code_sealed: sealed }).update({ guard_code_sealed: null })) > 0;
  }

  /** Replaces the sealed values (a new signing secret seals them anew). */
  async reseal(values: Pick<SteamAccountRow, 'password_sealed' | 'guard_code_sealed'>, trx: Knex.Transaction): Promise<void> {
    await trx('steam_account').where({ id: 1 }).update(values);
  }
}
