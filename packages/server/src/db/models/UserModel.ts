import { Model } from 'objection';

export class UserModel extends Model {
  static override tableName = 'users';
  id!: number;
  username!: string;
  password_hash!: string;
  role!: 'admin' | 'viewer';
  created_at!: string;
  last_login!: string | null;
  token_generation!: number;
}
