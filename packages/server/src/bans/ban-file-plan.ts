import type { BanFileEntry, BanManager } from '@garrison/core';
import type { FileBanRow, FileState, NewBanRow, RowChange } from '../db/repositories/bans.js';
import { composeFile, type FileLine } from './ban-file.js';

export interface ImportedBan {
  line: string;
  entry: BanFileEntry;
}

export interface BanFilePlan {
  /** The file as it is to be, and whether that differs from what was read. */
  bytes: Buffer;
  changed: boolean;
  changes: RowChange[];
  imports: ImportedBan[];
  /** Bans whose lines someone else took out of the file. */
  vanished: number[];
  /** Lines this pass adds, and lines it takes out: a check after the game reloads looks for both. */
  added: string[];
  removed: string[];
}

interface Group {
  text: string;
  rows: FileBanRow[];
  lines: number[];
}

type LineCodec = Pick<BanManager, 'parseBanLine' | 'formatBanLine'>;

const expired = (row: FileBanRow, now: Date) => row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime();

/**
 * How one pass brings the ban file and the bans together, decided from what was read (nothing is done
 * here). Lines and bans are matched by text, or by the entry's key when another writer wrote the same
 * ban in its own spacing. Bans sharing a line share it: a line stays while one of them still needs it.
 *
 * - a ban to add gets its line, unless an equal one is there (a pass cut off after writing it);
 * - a ban to remove, revoked or (written by Garrison) expired, loses its line(s), duplicates included;
 * - a ban in force whose line is gone was taken out by someone else: it ends;
 * - a ban line no ban claims was written by someone else: it is imported;
 * - every other line, ban or not, stays byte for byte.
 *
 * A missing file is one not written yet: Garrison's own bans are written to it. A file that was being
 * written while it was read may be cut short: nothing is concluded from a line missing from it, and its
 * last line, when it has no break yet, waits for the next pass.
 */
export function planBanFile(
  file: { exists: boolean; bytes: Buffer; lines: FileLine[]; settled: boolean },
  rows: FileBanRow[],
  codec: LineCodec,
  now: Date,
): BanFilePlan {
  const entries = file.lines.map((l) => codec.parseBanLine(l.text, now));
  const byText = new Map<string, number[]>();
  const byKey = new Map<string, number[]>();
  entries.forEach((entry, i) => {
    if (!entry) return;
    const text = file.lines[i].text;
    byText.set(text, [...(byText.get(text) ?? []), i]);
    byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), i]);
  });

  const lineOf = (row: FileBanRow) =>
    row.file_line ??
    codec.formatBanLine({
      id: { kind: row.ban_type, value: row.guid },
      reason: row.reason,
      expires_at: row.expires_at ? new Date(row.expires_at) : null,
    });
  const groups = new Map<string, Group>();
  for (const row of rows) {
    if (row.file_state === 'none') continue;
    const text = lineOf(row);
    const group = groups.get(text) ?? { text, rows: [], lines: byText.get(text) ?? [] };
    group.rows.push(row);
    groups.set(text, group);
  }
  const claimed = new Set([...groups.values()].flatMap((g) => g.lines));
  for (const group of groups.values()) {
    if (group.lines.length) continue;
    const key = codec.parseBanLine(group.text, now)?.key;
    const same = (key === undefined ? [] : (byKey.get(key) ?? [])).filter((i) => !claimed.has(i));
    if (!same.length) continue;
    group.text = file.lines[same[0]].text; // the other writer's spelling is the line now
    group.lines = same;
    same.forEach((i) => claimed.add(i));
  }

  const changes: RowChange[] = [];
  const vanished: number[] = [];
  const drop = new Set<number>();
  const added: string[] = [];
  const removed: string[] = [];
  const set = (row: FileBanRow, file_state: FileState, file_line: string | null, active: boolean) =>
    changes.push({ id: row.id, file_state, file_line, active });

  for (const group of groups.values()) {
    const ending = (row: FileBanRow) => row.file_state === 'remove' || (row.source === 'api' && expired(row, now));
    const keeping = group.rows.filter((r) => !ending(r));
    const adding = keeping.some((r) => r.file_state === 'add' || (!file.exists && r.source === 'api'));
    if (group.lines.length && !keeping.length) {
      group.lines.forEach((i) => drop.add(i));
      removed.push(group.text);
    } else if (!group.lines.length && adding) {
      added.push(group.text);
    }
    const present = group.lines.length > 0 || adding;
    for (const row of group.rows) {
      if (ending(row)) set(row, 'none', null, false);
      else if (present) {
        if (row.file_state !== 'ok' || row.file_line !== group.text) set(row, 'ok', group.text, true);
      } else if (file.settled) {
        vanished.push(row.id);
        set(row, 'none', null, false);
      } // a file read while being written may just be cut short: the next pass looks again
    }
  }

  const imports: ImportedBan[] = [];
  const importedTexts = new Set<string>();
  const last = file.lines[file.lines.length - 1];
  const unfinished = !file.settled && last && last.raw[last.raw.length - 1] !== 0x0a ? file.lines.length - 1 : -1;
  entries.forEach((entry, i) => {
    const text = file.lines[i].text;
    if (!entry || claimed.has(i) || importedTexts.has(text) || i === unfinished) return;
    importedTexts.add(text); // a duplicated line is one ban, claiming every copy
    imports.push({ line: text, entry });
  });

  const bytes = drop.size || added.length ? composeFile(file.lines, drop, added) : file.bytes;
  return { bytes, changed: !bytes.equals(file.bytes), changes, imports, vanished, added, removed };
}

const MAX_MINUTES = 2_147_483_647;

/** The ban a line no ban claimed becomes: written by someone else, so `source` file, `banned_by` the file's name. */
export function importedBan(serverId: number, { line, entry }: ImportedBan, now: Date, fileName: string): NewBanRow {
  const minutes = entry.expires_at
    ? Math.min(MAX_MINUTES, Math.max(1, Math.ceil((entry.expires_at.getTime() - now.getTime()) / 60_000)))
    : 0;
  return {
    server_id: serverId,
    guid: entry.id.value,
    name: null,
    reason: entry.reason,
    banned_by: fileName,
    ban_type: entry.id.kind,
    duration_minutes: minutes,
    expires_at: entry.expires_at?.toISOString() ?? null,
    created_at: now.toISOString(),
    active: true,
    source: 'file',
    file_state: 'ok',
    file_line: line,
  };
}
