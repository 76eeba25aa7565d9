import { migrate, unlockMigrations } from '../db/connection.js';
import type { Store } from './store.js';

export async function migrateOnly(store: Store, unlock: boolean): Promise<void> {
  if (unlock) await unlockMigrations(store.db);
  await migrate(store.db);
  console.log(`database ${store.db.safeUrl} is up to date`);
}
