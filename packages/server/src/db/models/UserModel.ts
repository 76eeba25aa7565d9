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
  /** Encrypted; null while two-factor sign-in is off. */
  totp_secret!: string | null;
}
