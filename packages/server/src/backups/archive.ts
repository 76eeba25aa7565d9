import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix, relative } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import type { BackupPart } from '@garrison/core';

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
      const names = await readdir(part.root).catch(() => [] as string[]);
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
export async function writeArchive(parts: ArchivePart[], manifestFile: string, target: string, onProgress: (bytes: number) => void, signal: AbortSignal): Promise<{ size: number; sha256: string; files: Record<string, number> }> {
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
        entry.path = rename_(entry.path);
        const part = entry.path.split('/')[0]!;
        if (entry.type === 'File' && part in files) files[part]! += 1;
      },
    },
    paths,
  );
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  const digest = new Digest(onProgress);
  try {
    await mkdir(dirname(target), { recursive: true });
    await pipeline(pack, digest, createWriteStream(temp, { flags: 'wx', flush: true }), { signal });
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

/**
 * Extracts part `name` of the archive into `into` (a new folder beside where it will go). node-tar refuses
 * absolute paths and `..`; a link that would point out of the part is refused here: the restore fails.
 */
export async function extractPart(file: string, name: string, into: string): Promise<void> {
  await mkdir(into, { recursive: true });
  const refused: string[] = [];
  await tar.x({
    file,
    cwd: into,
    strict: true,
    strip: 1,
    filter: (path, entry) => {
      if (!path.startsWith(`${name}/`) || path === `${name}/`) return false;
      const type = (entry as { type?: string }).type;
      const link = (entry as { linkpath?: string }).linkpath;
      if ((type === 'SymbolicLink' || type === 'Link') && link) {
        const from = type === 'Link' ? '' : posix.dirname(path.slice(name.length + 1));
        const target = posix.normalize(posix.join(from, link));
        if (isAbsolute(link) || target === '..' || target.startsWith('../')) {
          refused.push(`${path} → ${link}`);
          return false;
        }
      }
      return true;
    },
  });
  if (refused.length) throw new Error(`the archive holds links that point out of ${name}: ${refused.slice(0, 3).join(', ')}`);
}

/** One file of the archive (by its path there), as text, or null when it holds none. */
export async function extractFile(file: string, path: string, into: string): Promise<string | null> {
  await mkdir(into, { recursive: true });
  await tar.x({ file, cwd: into, strict: true, filter: (p) => p === path });
  return readFile(join(into, path), 'utf8').catch(() => null);
}

/** The top-level entries an extracted part holds. */
export const entriesOf = (folder: string) => readdir(folder).catch(() => [] as string[]);

