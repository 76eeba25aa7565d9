import { open, stat, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { wallClock } from '../jobs/clock.js';
import { ifErrno, ifMissing } from '@garrison/core';

/** Longest line passed on whole; a longer one comes in pieces of this length (a game can print anything). */
const MAX_LINE_CHARS = 8192;

/** Read at a time: a line arrives in one read, a flood in several. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Reads what is appended to a file, line by line, from an offset on: a bounded amount per call, so a
 * flood is read over several calls instead of into memory at once. A file that shrank (truncated) or
 * was replaced is read again from its start.
 *
 * The file stays open between calls, and is read without asking its size first: a game writing
 * 200 lines a second is read about as often, and a stat, an open and a close for each read were a
 * sixth of the service's time in bench/log-fanout. Its size and identity are checked when a read
 * finds nothing new.
 */
export class FileFollower {
  private partial = '';
  // A character split between two reads is decoded whole on the next one.
  private decoder = new StringDecoder('utf8');
  private handle: FileHandle | null = null;
  private readonly chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private checkedAt = 0;

  constructor(
    readonly path: string,
    public offset: number,
  ) {}

  async readLines(maxBytes: number): Promise<string[]> {
    const handle = await this.open();
    if (!handle) return [];
    let text = '';
    let total = 0;
    while (total < maxBytes) {
      const { bytesRead } = await handle.read(this.chunk, 0, Math.min(CHUNK_BYTES, maxBytes - total), this.offset);
      if (bytesRead === 0) break;
      this.offset += bytesRead;
      total += bytesRead;
      text += this.decoder.write(this.chunk.subarray(0, bytesRead));
      if (bytesRead < CHUNK_BYTES) break;
    }
    if (total === 0) {
      // At most once a second: a change event often finds nothing new (the game wrote the other file).
      if (wallClock.now() - this.checkedAt < 1000) return [];
      this.checkedAt = wallClock.now();
      if (await this.startedOver(handle)) return this.readLines(maxBytes);
      return [];
    }
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop()!;
    // A line longer than that is passed on in pieces, in order, rather than kept whole or cut.
    const out = lines.flatMap(pieces);
    if (this.partial.length > MAX_LINE_CHARS) {
      const whole = pieces(this.partial);
      this.partial = whole.pop()!;
      out.push(...whole);
    }
    return out;
  }

  /** Lets go of the file. */
  close(): void {
    void this.handle?.close().catch(ifErrno(['EBADF'], undefined)); // closed already
    this.handle = null;
  }

  private async open(): Promise<FileHandle | null> {
    this.handle ??= await open(this.path, 'r').catch(ifMissing(null)); // not written yet
    return this.handle;
  }

  /**
   * Whether the file was truncated, or another file now has its name (rotated, replaced): reading then
   * starts again from the beginning, of the file now at the path.
   */
  private async startedOver(handle: FileHandle): Promise<boolean> {
    const [held, named] = await Promise.all([handle.stat(), stat(this.path).catch(ifMissing(null))]);
    const replaced = held && named && (held.ino !== named.ino || held.dev !== named.dev);
    const truncated = held && held.size < this.offset;
    if (!replaced && !truncated) return false;
    if (replaced) this.close();
    this.offset = 0;
    this.partial = '';
    this.decoder = new StringDecoder('utf8');
    return true;
  }
}

function pieces(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (line.length - start > MAX_LINE_CHARS) {
    let end = start + MAX_LINE_CHARS;
    if (/[\ud800-\udbff]/.test(line[end - 1])) end -= 1; // never between the halves of one character
    out.push(line.slice(start, end));
    start = end;
  }
  out.push(line.slice(start));
  return out;
}
