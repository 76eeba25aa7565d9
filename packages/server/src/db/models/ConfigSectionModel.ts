import { Model } from 'objection';

export class ConfigSectionModel extends Model {
  static override tableName = 'config_sections';
  id!: number;
  server_id!: number;
  section!: string;
  /** The section's fields as JSON text; kept as text so SQLite and MariaDB store it alike. */
  data!: string;
  config_version!: number;
}
