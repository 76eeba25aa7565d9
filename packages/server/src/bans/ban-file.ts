import { randomBytes } from 'node:crypto';
import { appendFile, link, mkdir, open, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { wallClock } from '../jobs/clock.js';
import { ifMissing, isMissing } from '@garrison/core';

/**
 * The game's ban file as bytes and lines. It is shared: the game rewrites it in place, tools append to
 * it, people edit it. Garrison keeps every line it does not change as the bytes they were (line breaks,
 * encodings it cannot read, everything), and replaces the file only by an atomic rename.
 */

export interface FileLine {
  /** The line's bytes with its line break, as found. */
  raw: Buffer;
  /** The line decoded as UTF-8, without its line break: what is matched and parsed. */
  text: string;
}

export interface BanFileSnapshot {
  exists: boolean;
  bytes: Buffer;
  lines: FileLine[];
  /**
   * Whether the file had been left alone for a while when it was read. A file written a moment ago may
   * have been read half-way through an in-place rewrite, however still it seemed, so a line missing
   * from it is no sign of anything, nor is a last line without a break; a settled file says both.
   */
  settled: boolean;
  /** Open on the file that was read, so that a write landing in it after the read is noticed. */
  handle: FileHandle | null;
}

/**
 * How long a file must have been left alone for what is missing from it to mean something. Compared with
 * the file's own time stamp, so against the real clock, whatever clock the service runs on.
 */
const QUIET_MS = 1000;
/** A file changed more recently than that is read again, until two reads agree. */
const SETTLE_READS = 3;
/** A file rewritten in place is waited for until it has been left alone this long (real time)… */
const REWRITE_QUIET_MS = 50;
/** …but not longer than this. */
const REWRITE_WAIT_MS = 2000;
/** A replaced file written to this recently may still get an appender's line that opened it before the rename. */
const LATE_WRITE_QUIET_MS = 100;

export function splitLines(bytes: Buffer): FileLine[] {
  const lines: FileLine[] = [];
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline + 1;
    const raw = bytes.subarray(start, end);
    let bodyEnd = raw.length;
    if (raw[bodyEnd - 1] === 0x0a) bodyEnd -= 1;
    if (raw[bodyEnd - 1] === 0x0d) bodyEnd -= 1;
    lines.push({ raw, text: raw.subarray(0, bodyEnd).toString('utf8') });
    start = end;
  }
  return lines;
}

/** The line break the file already uses (its last one), so that added lines match it. */
function lineBreakOf(lines: FileLine[]): string {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const raw = lines[i].raw;
    if (raw[raw.length - 1] === 0x0a) return raw[raw.length - 2] === 0x0d ? '\r\n' : '\n';
  }
  return '\n';
}

/** The file with `drop` lines left out and `add` lines appended, every other byte as it was. */
export function composeFile(lines: FileLine[], drop: ReadonlySet<number>, add: readonly string[]): Buffer {
  const kept = lines.filter((_, i) => !drop.has(i)).map((l) => l.raw);
  if (add.length) {
    const eol = lineBreakOf(lines);
    const last = kept[kept.length - 1];
    // The last line had no break: it gets one, or the first added line would run on from it.
    if (last && last[last.length - 1] !== 0x0a) kept.push(Buffer.from(eol));
    kept.push(Buffer.from(add.map((line) => line + eol).join(''), 'utf8'));
  }
  return Buffer.concat(kept);
}

async function readAll(handle: FileHandle): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return Buffer.concat(chunks);
    chunks.push(chunk.subarray(0, bytesRead));
    position += bytesRead;
  }
}

/** Reads the file, and says whether it held still while it was read. */
export async function readBanFile(path: string): Promise<BanFileSnapshot> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { exists: false, bytes: Buffer.alloc(0), lines: [], settled: true, handle: null };
    throw err;
  }
  try {
    const { bytes, settled } = await settledContent(handle);
    return { exists: true, bytes, lines: splitLines(bytes), settled, handle };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/**
 * The file's content, and whether it was settled: a writer that truncates and then writes leaves an
 * empty or half file for a moment, and an appender may be half-way through its line. A recent file is
 * read again until two reads agree, which gets a whole file in all but the unluckiest timing; it still
 * does not count as settled until it has been left alone for QUIET_MS.
 */
async function settledContent(handle: FileHandle): Promise<{ bytes: Buffer; settled: boolean }> {
  let bytes = await readAll(handle);
  for (let i = 0; ; i += 1) {
    if (wallClock.now() - (await handle.stat()).mtimeMs > QUIET_MS) return { bytes, settled: true };
    if (i === SETTLE_READS) return { bytes, settled: false };
    await new Promise((resolve) => setImmediate(resolve)); // let a writer that is under way go on
    const again = await readAll(handle);
    if (again.equals(bytes)) return { bytes, settled: false };
    bytes = again;
  }
}

/**
 * The file a pass replaced, kept open: another writer that had it open (an in-place rewrite under way,
 * an append) may still land its write in it after the rename, and that write must not be lost.
 */
export class Replaced {
  constructor(
    private readonly path: string,
    private readonly handle: FileHandle | null,
    private carried: Buffer,
  ) {}

  /**
   * Looks at the replaced file again: lines appended to it since are appended to the file now in its
   * place (`appended`: their bytes, null when none); a rewrite is returned, once finished, to be merged
   * and written again.
   */
  async catchUp(): Promise<{ appended: Buffer | null; rewrite: Buffer | null }> {
    const appended: Buffer[] = [];
    const done = (rewrite: Buffer | null) => ({ appended: appended.length ? Buffer.concat(appended) : null, rewrite });
    if (!this.handle) return done(null);
    for (;;) {
      const { bytes: after } = await settledContent(this.handle);
      if (after.equals(this.carried)) return done(null);
      if (after.length < this.carried.length || !after.subarray(0, this.carried.length).equals(this.carried)) {
        const rewrite = await rewritten(this.handle);
        this.carried = rewrite;
        return done(rewrite);
      }
      const late = after.subarray(this.carried.length);
      await appendFile(this.path, late);
      appended.push(late);
      this.carried = after;
    }
  }

  /**
   * Catches up until the replaced file has held still for LATE_WRITE_QUIET_MS, then lets it go: an
   * appender that opened it just before the rename writes a moment later, after the catch-up that
   * followed the rename (seen under load: a tool's line lost). Bounded by REWRITE_WAIT_MS.
   */
  async finish(): Promise<void> {
    try {
      const deadline = wallClock.now() + REWRITE_WAIT_MS;
      while (this.handle && wallClock.now() < deadline) {
        const age = wallClock.now() - (await this.handle.stat()).mtimeMs;
        if (age >= LATE_WRITE_QUIET_MS) break;
        await wallClock.sleep(LATE_WRITE_QUIET_MS - age);
        await this.catchUp();
      }
      await this.catchUp();
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }
}

/**
 * Replaces the file with `bytes` (temp file and rename in the same folder, the file's mode kept), and
 * catches up at once with what landed in the file that was read (see Replaced). Takes over the
 * snapshot's open handle.
 */
export async function replaceBanFile(
  path: string,
  snapshot: BanFileSnapshot,
  bytes: Buffer,
): Promise<{ replaced: Replaced; rewrite: Buffer | null }> {
  await mkdir(dirname(path), { recursive: true });
  if (!snapshot.exists) {
    await snapshot.handle?.close();
    return { replaced: new Replaced(path, null, bytes), rewrite: await createBanFile(path, bytes) };
  }
  await writeFileAtomic(path, bytes);
  const replaced = new Replaced(path, snapshot.handle, snapshot.bytes);
  return { replaced, rewrite: (await replaced.catchUp()).rewrite };
}

/**
 * The content of a file another program rewrote in place, once it has finished: a rewrite read half-way
 * (truncated, then written) must never become the base of the next write. Throws when it does not hold
 * still in time; the pass fails and the next one tries again.
 */
async function rewritten(handle: FileHandle): Promise<Buffer> {
  const deadline = wallClock.now() + REWRITE_WAIT_MS;
  for (;;) {
    const age = wallClock.now() - (await handle.stat()).mtimeMs;
    if (age >= REWRITE_QUIET_MS) return readAll(handle);
    if (wallClock.now() > deadline) throw new Error('the ban file is being rewritten without pause; left for the next pass');
    await wallClock.sleep(REWRITE_QUIET_MS - age);
  }
}

/** Creates the file whole, unless someone created it since it was found missing: then that file is returned. */
async function createBanFile(path: string, bytes: Buffer): Promise<Buffer | null> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFileAtomic(temp, bytes, { mode: 0o600 });
    await link(temp, path); // fails when the name exists: never over a file another writer just made
    return null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const created = await open(path, 'r');
    try {
      return await rewritten(created);
    } finally {
      await created.close();
    }
  } finally {
    await unlink(temp).catch(ifMissing(undefined));
  }
}

/** What identifies the file's current version, to skip a pass when nothing changed. */
export async function banFileVersion(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch (err) {
    if (!isMissing(err)) throw err;
    return 'missing';
  }
}
