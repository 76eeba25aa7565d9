import { open, stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** Longest line kept whole; a longer one is cut there (a game can print anything). */
export const MAX_LINE_CHARS = 8192;

/**
 * Reads what is appended to a file, line by line, from an offset on: a bounded amount per call, so a
 * flood is read over several calls instead of into memory at once. A file that shrank (truncated, or
 * replaced) is read again from its start.
 */
export class FileFollower {
  private partial = '';
  // A character split between two reads is decoded whole on the next one.
  private decoder = new StringDecoder('utf8');

  constructor(
    readonly path: string,
    public offset: number,
  ) {}

  async readLines(maxBytes: number): Promise<string[]> {
    const size = await stat(this.path).then((s) => s.size, () => null);
    if (size === null) return [];
    if (size < this.offset) {
      this.offset = 0;
      this.partial = '';
      this.decoder = new StringDecoder('utf8');
    }
    if (size === this.offset) return [];
    const length = Math.min(size - this.offset, maxBytes);
    const buffer = Buffer.alloc(length);
    const handle = await open(this.path, 'r');
    let read: number;
    try {
      ({ bytesRead: read } = await handle.read(buffer, 0, length, this.offset));
    } finally {
      await handle.close();
    }
    this.offset += read;
    const lines = (this.partial + this.decoder.write(buffer.subarray(0, read))).split('\n');
    this.partial = lines.pop()!;
    if (this.partial.length > MAX_LINE_CHARS) {
      lines.push(this.partial.slice(0, MAX_LINE_CHARS));
      this.partial = '';
    }
    return lines.map((l) => (l.length > MAX_LINE_CHARS ? l.slice(0, MAX_LINE_CHARS) : l));
  }
}
