import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ACTIVE_STATUSES, type BanEntry, type PlayerIdentity, type RemoteAdmin, type RunCommand } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { ServerRow } from '../db/repositories/index.js';
import type { FileBanRow } from '../db/repositories/bans.js';
import { RemoteAdminService } from '../rcon/service.js';
import { readBanFile, replaceBanFile, splitLines, type BanFileSnapshot, type Replaced } from './ban-file.js';
import { planBanFile, type BanFilePlan } from './ban-file-plan.js';
import type { BanFile } from './ban-files.js';

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
    remote: RemoteAdmin | undefined,
    { path, codec }: BanFile,
    rows: FileBanRow[],
    now: Date,
  ): Promise<{ plan: BanFilePlan; stood: boolean; settled: boolean }> {
    let file: BanFileSnapshot = await readBanFile(path);
    let replaced: Replaced | null = null;
    /** Bans another writer appended to the replaced file, carried over to ours: the game is told of them too. */
    let owed: BanEntry[] = [];
    try {
      for (let attempt = 1; ; attempt += 1) {
        const plan = planBanFile(file, rows, codec, now);
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
        } else if (!owed.length) {
          return done;
        }
        const parsed = (texts: string[]) => texts.flatMap((t) => codec.parseBanLine(t, now) ?? []);
        const holding = parsed(splitLines(plan.bytes).map((l) => l.text));
        const change = { added: [...parsed(plan.added), ...owed], removed: parsed(plan.removed).map((e) => e.id) };
        if (!(await this.reload(row, remote, change, holding))) return done;
        const late = replaced ? await replaced.catchUp() : { appended: null, rewrite: null };
        owed = late.appended ? parsed(splitLines(late.appended).map((l) => l.text)) : [];
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

  /**
   * Has a running game take the change: one reload of the whole file (`remote.reloadBans`) where the game
   * has one; otherwise each added ban (`remote.ban`) and each removed one (`remote.unban`), each with the
   * bans of its identity the file holds now (`holding`), of which a game that keeps one ban per identity
   * keeps the strongest. False when the game does not run,
   * has neither operation for the change, or did not answer: it reads the file at its next start then.
   */
  private async reload(
    row: ServerRow,
    remote: RemoteAdmin | undefined,
    { added, removed }: { added: BanEntry[]; removed: PlayerIdentity[] },
    holding: BanEntry[],
  ): Promise<boolean> {
    if (!remote || !ACTIVE_STATUSES.includes(row.status)) return false;
    const heldFor = (id: PlayerIdentity) => holding.filter((b) => b.id.kind === id.kind && b.id.value === id.value);
    const reload = remote.reloadBans;
    const calls =
      reload && (added.length || removed.length)
        ? [(run: RunCommand) => reload(run)]
        : [
            ...(remote.ban ? added.map((ban) => (run: RunCommand) => remote.ban!(run, ban, heldFor(ban.id))) : []),
            ...(remote.unban ? removed.map((id) => (run: RunCommand) => remote.unban!(run, id, heldFor(id))) : []),
          ];
    if (!calls.length) return false;
    const run: RunCommand = (text) => this.remoteAdmin.command(row.id, text);
    try {
      for (const call of calls) await call(run);
      return true;
    } catch (err) {
      this.logger.warn(
        { serverId: row.id, err: (err as Error).message },
        'the game did not take the ban file change; it reads the file at its next start',
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
