import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { TOKENS } from '../tokens.js';
import type { BackupSettings } from './settings.js';
import type { DataSettings } from '../db/settings.js';
import type { JobRunner } from '../jobs/runner.js';
import type { Clock } from '../jobs/clock.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { DatabaseAccess } from '../db/access.js';
import { backupRoot } from './service.js';

const DAY_MS = 86_400_000;
const PREFIX = 'garrison-';

/**
 * Garrison's own database, copied once a day into `<backup dir>/garrison-db/garrison-<date>.db` (SQLite
 * only: MySQL/MariaDB are backed up by their own tools), the newest `dbBackupKeep` kept.
 */
@injectable()
export class DatabaseBackups implements Lifecycle {
  constructor(
    @inject(TOKENS.Settings) private readonly settings: BackupSettings & Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.DatabaseAccess) private readonly db: DatabaseAccess,
  ) {}

  get folder(): string {
    return join(backupRoot(this.settings), 'garrison-db');
  }

  start(): void {
    if (this.db.dialect !== 'sqlite' || this.settings.dbBackupKeep === 0) return;
    this.jobs.every({ name: 'database.backup', everyMs: DAY_MS, startNow: false, run: async () => void (await this.run()) });
  }

  async run(): Promise<string> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const day = new Date(this.clock.now()).toISOString().slice(0, 10);
    const { path, bytes } = await this.db.backupTo(join(this.folder, `${PREFIX}${day}.db`));
    this.logger.info({ path, bytes }, 'database backed up');
    const copies = (await readdir(this.folder)).filter((n) => n.startsWith(PREFIX) && n.endsWith('.db')).sort();
    for (const old of copies.slice(0, Math.max(0, copies.length - this.settings.dbBackupKeep)))
      await rm(join(this.folder, old), { force: true });
    return path;
  }
}
