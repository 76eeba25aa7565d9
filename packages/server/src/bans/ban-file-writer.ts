import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ACTIVE_STATUSES, type BanManager } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { ServerRow } from '../db/repositories/index.js';
import type { FileBanRow } from '../db/repositories/bans.js';
import { RemoteAdminService } from '../rcon/service.js';
import { readBanFile, replaceBanFile, splitLines, type BanFileSnapshot, type Replaced } from './ban-file.js';
import { planBanFile, type BanFilePlan } from './ban-file-plan.js';

/** Write, reload, check: tried this often when another writer keeps undoing the change. */
const PASS_ATTEMPTS = 4;

/**
 * The writing half of a ban-file pass (BanService runs the pass): the planned change written, reloaded by
 * a running game over remote admin, and checked to have stood.
 */
@injectable()
export class BanFileWriter {
  constructor(
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(RemoteAdminService) private readonly remoteAdmin: RemoteAdminService,
  ) {}

  /**
   * Plans from the file as it is, writes the change, has a running game reload it and checks that it
   * stood; again when another writer undid it meanwhile (up to PASS_ATTEMPTS times). The game finishes
   * what it was writing before it answers the reload, so a write of its that landed in the replaced
   * file is caught up with then, and the game reloads again.
   */
  async write(
    row: ServerRow,
    manager: BanManager,
    path: string,
    rows: FileBanRow[],
    now: Date,
  ): Promise<{ plan: BanFilePlan; stood: boolean; settled: boolean }> {
    let file: BanFileSnapshot = await readBanFile(path);
    let replaced: Replaced | null = null;
    let reloadOwed = false;
    try {
      for (let attempt = 1; ; attempt += 1) {
        const plan = planBanFile(file, rows, manager, now);
        const done = { plan, stood: true, settled: file.settled };
        const last = attempt === PASS_ATTEMPTS;
        if (plan.changed) {
          await replaced?.close();
          const result = await replaceBanFile(path, file, plan.bytes);
          file = { ...file, handle: null }; // the replacement holds it now
          replaced = result.replaced;
          if (result.rewrite && !last) {
            // Someone rewrote the file between the read and the rename: their version is merged again.
            file = { exists: true, bytes: result.rewrite, lines: splitLines(result.rewrite), settled: false, handle: null };
            continue;
          }
        } else if (!reloadOwed) {
          return done;
        }
        if (!(await this.reload(row, manager))) return done;
        const late = replaced ? await replaced.catchUp() : { appended: false, rewrite: null };
        reloadOwed = late.appended;
        if (!late.appended && !late.rewrite && (await this.stands(plan, path))) return done;
        if (last) {
          this.logger.warn({ serverId: row.id }, 'the game keeps writing its ban file over the changes; the next pass tries again');
          return { ...done, stood: false };
        }
        // The game saved its own list over the file after ours landed and before it reloaded: again.
        file = late.rewrite
          ? { exists: true, bytes: late.rewrite, lines: splitLines(late.rewrite), settled: false, handle: null }
          : await readBanFile(path);
      }
    } finally {
      await file.handle?.close();
      await replaced?.finish();
    }
  }

  /** Has a running game read the file again; false when it does not run or did not answer. */
  private async reload(row: ServerRow, manager: BanManager): Promise<boolean> {
    if (!manager.reloadCommand || !ACTIVE_STATUSES.includes(row.status)) return false;
    try {
      await this.remoteAdmin.command(row.id, manager.reloadCommand);
      return true;
    } catch (err) {
      this.logger.warn(
        { serverId: row.id, err: (err as Error).message },
        'the game did not reload its ban file; it reads it at its next start',
      );
      return false;
    }
  }

  /** Whether what the pass wrote is still in the file after the game reloaded it. */
  private async stands(plan: BanFilePlan, path: string): Promise<boolean> {
    const after = await readBanFile(path);
    await after.handle?.close();
    const texts = new Set(after.lines.map((l) => l.text));
    return plan.added.every((t) => texts.has(t)) && plan.removed.every((t) => !texts.has(t));
  }
}
