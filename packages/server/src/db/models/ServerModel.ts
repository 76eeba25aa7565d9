import { Model } from 'objection';
import type { ServerStatus } from '@garrison/core';

export class ServerModel extends Model {
  static override tableName = 'servers';
  static override jsonAttributes = ['backup_exclude'];
  id!: number;
  name!: string;
  description!: string | null;
  game_type!: string;
  status!: ServerStatus;
  pid!: number | null;
  exe_path!: string;
  game_port!: number;
  rcon_port!: number;
  auto_restart!: boolean;
  max_restarts!: number;
  restart_count!: number;
  headless_clients!: number;
  backup_keep!: number;
  backup_exclude!: string[] | null;
  started_at!: string | null;
  process_start_time!: string | null;
  started_config_version!: number | null;
  current_mission!: string | null;
  node_id!: string | null;
  installation_key!: string | null;
  folders_pending!: boolean;
  created_at!: string;
  updated_at!: string;

  // SQLite and MariaDB both hand booleans back as 0/1.
  override $parseDatabaseJson(json: Record<string, unknown>) {
    const parsed = super.$parseDatabaseJson(json);
    if ('auto_restart' in parsed) parsed.auto_restart = Boolean(parsed.auto_restart);
    if ('folders_pending' in parsed) parsed.folders_pending = Boolean(parsed.folders_pending);
    return parsed;
  }
}
