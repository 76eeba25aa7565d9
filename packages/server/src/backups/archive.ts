import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, statfs } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix, relative } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import type { BackupPart } from '@garrison/core';
import { ifMissing } from '@garrison/core';

/** A part as it goes into one archive. */
export interface ArchivePart extends BackupPart {
  /** The top-level entries of `root` to put in (after `entries` and `exclude`). */
  chosen: string[];
}

const matches = (name: string, patterns: readonly string[] = []) =>
  patterns.some((p) => (p.startsWith('*') ? name.toLowerCase().endsWith(p.slice(1).toLowerCase()) : name === p));

/** What of each part exists now: its chosen top-level entries (a missing folder is an empty part). */
export async function choose(parts: BackupPart[]): Promise<ArchivePart[]> {
  return Promise.all(
    parts.map(async (part) => {
      const names = await readdir(part.root).catch(ifMissing<string[]>([]));
      const chosen = names.filter((n) => (!part.entries || part.entries.includes(n)) && !matches(n, part.exclude)).sort();
      return { ...part, chosen };
    }),
  );
}

/** Counts and hashes the bytes going by. */
class Digest extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  constructor(private readonly onProgress: (bytes: number) => void) {
    super();
  }
  override _transform(chunk: Buffer, _: BufferEncoding, done: () => void): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    this.onProgress(this.bytes);
    this.push(chunk);
    done();
  }
}

/**
 * Writes `parts` and `manifest.json` as a gzip'd tar to `target`, streamed (never a whole archive in
 * memory), hashed while it is written, under a temporary name renamed into place at the end: a failure
 * (a full disk, a stop) leaves no file. Entries are stored as `<part name>/<path in its root>`.
 */
export async function writeArchive(
  parts: ArchivePart[],
  manifestFile: string,
  target: string,
  onProgress: (bytes: number) => void,
  signal: AbortSignal,
): Promise<{ size: number; sha256: string; files: Record<string, number> }> {
  const roots = parts.map((p) => ({ name: p.name, rel: relative('/', p.root) })).sort((a, b) => b.rel.length - a.rel.length);
  const files: Record<string, number> = Object.fromEntries(parts.map((p) => [p.name, 0]));
  const excludes = new Map(parts.map((p) => [relative('/', p.root), p.exclude ?? []]));
  const manifestRel = relative('/', manifestFile);
  const rename_ = (path: string): string => {
    const clean = path.replace(/\/$/, '');
    if (clean === manifestRel) return 'manifest.json';
    const root = roots.find((r) => clean === r.rel || clean.startsWith(`${r.rel}/`));
    return root ? posix.join(root.name, clean.slice(root.rel.length)) + (path.endsWith('/') ? '/' : '') : path;
  };
  const paths = [manifestRel, ...parts.flatMap((p) => p.chosen.map((name) => relative('/', join(p.root, name))))];
  const pack = tar.c(
    {
      gzip: { level: 6 },
      cwd: '/',
      portable: true,
      // Small reads, one file at a time: memory stays bounded whatever the size of a file (16 MiB reads
      // of 4 files at once grew the RSS by 125 MiB in bench/backup.mjs, 256 KiB reads of one by 70 on
      // 1 GiB, 64 KiB reads by about 30, at the same throughput).
      maxReadSize: 64 * 1024,
      jobs: 1,
      // Below a part's root, its excluded names stay out at every depth (a crash dump in a subfolder too).
      filter: (path) => {
        const root = [...excludes.keys()].find((r) => path.startsWith(`${r}/`));
        return !root || !matches(basename(path), excludes.get(root));
      },
      onWriteEntry: (entry) => {
        // `portable` leaves a folder's time out (1970 when listed or unpacked): its real one is kept, as a file's is.
        if (entry.type === 'Directory') entry.noMtime = false;
        entry.path = rename_(entry.path);
        const part = entry.path.split('/')[0];
        if (entry.type === 'File' && part in files) files[part] += 1;
      },
    },
    paths,
  );
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  const digest = new Digest(onProgress);
  try {
    // Owner only: the archive holds the rendered config files, with the game's passwords as the game reads them.
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await pipeline(pack, digest, createWriteStream(temp, { flags: 'wx', flush: true, mode: 0o600 }), { signal });
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return { size: (await stat(target)).size, sha256: digest.hash.digest('hex'), files };
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** The entry types a restore writes; devices, FIFOs and the like are refused, not skipped. */
const WRITTEN = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);
/** The manifest is read whole into memory: far larger than any a backup writes is refused. */
const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;

export interface RestoreLimits {
  maxBytes: number;
  maxFiles: number;
}

/**
 * Reads the archive's headers (nothing written) and refuses it when it would expand past the limits or the
 * free space of `freeSpaceOf`, or holds an entry of a type a restore does not write. Stops reading at the
 * first entry past a limit: a bomb is not expanded to find out how big it is.
 */
export async function checkArchive(file: string, limits: RestoreLimits, freeSpaceOf: string[]): Promise<void> {
  let files = 0;
  let bytes = 0;
  let refused: string | null = null;
  const parser = new tar.Parser({
    strict: true,
    onReadEntry: (entry) => {
      files += 1;
      bytes += entry.size ?? 0;
      if (files > limits.maxFiles) refused ??= `it holds more than ${limits.maxFiles} entries (GARRISON_RESTORE_MAX_FILES)`;
      else if (bytes > limits.maxBytes) refused ??= `its files add up to more than ${limits.maxBytes} bytes (GARRISON_RESTORE_MAX_BYTES)`;
      else if (!WRITTEN.has(entry.type)) refused ??= `it holds ${entry.path}, of type ${entry.type}, which a restore does not write`;
      else if (entry.path === 'manifest.json' && (entry.size ?? 0) > MANIFEST_MAX_BYTES)
        refused ??= `its manifest is over ${MANIFEST_MAX_BYTES} bytes`;
      entry.resume();
    },
  });
  const ended = new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('close', resolve);
    parser.on('error', reject);
  });
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
    if (refused) break;
    parser.write(chunk as Buffer);
  }
  if (!refused) {
    parser.end();
    await ended;
  }
  if (refused) throw new Error(refused);
  for (const folder of freeSpaceOf) {
    const fs = await statfs(folder).catch(ifMissing(null)); // not made yet: its free space is judged when it is
    if (fs && bytes > fs.bavail * fs.bsize)
      throw new Error(`its files add up to ${bytes} bytes, more than the ${fs.bavail * fs.bsize} free where they go (${folder})`);
  }
}

/**
 * Extracts part `name` of the archive into `into` (a new folder beside where it will go). node-tar refuses
 * absolute paths and `..`; a link that would point out of the part is refused here: the restore fails.
 * Files get the service's user as owner and lose setuid, setgid and sticky bits, whatever the archive says
 * (a backup never holds them; a crafted archive would plant a program that runs as someone else).
 */
export async function extractPart(file: string, name: string, into: string): Promise<void> {
  await mkdir(into, { recursive: true });
  const refused: string[] = [];
  const unwritten: string[] = [];
  await tar.x({
    file,
    cwd: into,
    strict: true,
    strip: 1,
    preserveOwner: false,
    filter: (path, entry) => {
      if (!path.startsWith(`${name}/`) || path === `${name}/`) return false;
      const type = (entry as { type?: string }).type;
      const link = (entry as { linkpath?: string }).linkpath;
      if (!type || !WRITTEN.has(type)) {
        unwritten.push(`${path} (${type ?? 'no type'})`);
        return false;
      }
      if ((type === 'SymbolicLink' || type === 'Link') && link) {
        const from = type === 'Link' ? '' : posix.dirname(path.slice(name.length + 1));
        const target = posix.normalize(posix.join(from, link));
        if (isAbsolute(link) || target === '..' || target.startsWith('../')) {
          refused.push(`${path} → ${link}`);
          return false;
        }
      }
      const read = entry as { mode?: number };
      if (typeof read.mode === 'number') read.mode &= 0o777;
      return true;
    },
  });
  if (refused.length) throw new Error(`the archive holds links that point out of ${name}: ${refused.slice(0, 3).join(', ')}`);
  if (unwritten.length) throw new Error(`the archive holds entries a restore does not write: ${unwritten.slice(0, 3).join(', ')}`);
}

/** One file of the archive (by its path there), as text, or null when it holds none. */
export async function extractFile(file: string, path: string, into: string): Promise<string | null> {
  await mkdir(into, { recursive: true });
  await tar.x({ file, cwd: into, strict: true, filter: (p) => p === path });
  return readFile(join(into, path), 'utf8').catch(ifMissing(null));
}

/** The top-level entries an extracted part holds. */
export const entriesOf = (folder: string) => readdir(folder).catch(ifMissing<string[]>([]));
