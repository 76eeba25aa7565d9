import { migrate, unlockMigrations } from '../db/connection.js';
import type { Store } from './store.js';
import { featureModules } from '../compose.js';
import { SystemClock } from '../jobs/clock.js';
import { moduleMigrations } from '../modules/assembly.js';

export async function migrateOnly(store: Store, unlock: boolean): Promise<void> {
  if (unlock) await unlockMigrations(store.db);
  await migrate(store.db, new SystemClock(), moduleMigrations(featureModules()));
  console.log(`database ${store.db.safeUrl} is up to date`);
}
