import type { Knex } from 'knex';

/** Steam's builds of an app, per branch, as `+app_info_print` last said them. */
export interface SteamAppInfoRow {
  app_id: string;
  /** Branch name → its build id. */
  builds: Record<string, string>;
  checked_at: string;
}

/** The steam_app_info table: a cache, so that Steam is asked at most every few minutes per app. */
export class SteamAppInfoRepository {
  constructor(private readonly knex: Knex) {}

  async get(appId: string): Promise<SteamAppInfoRow | null> {
    const row = await this.knex('steam_app_info').where({ app_id: appId }).first();
    return row ? { app_id: row.app_id, builds: JSON.parse(row.builds as string), checked_at: row.checked_at } : null;
  }

  async put(info: SteamAppInfoRow): Promise<void> {
    await this.knex('steam_app_info')
      .insert({ app_id: info.app_id, builds: JSON.stringify(info.builds), checked_at: info.checked_at })
      .onConflict('app_id')
      .merge();
  }
}
