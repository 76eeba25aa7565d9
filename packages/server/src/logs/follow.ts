import { open, stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** Longest line passed on whole; a longer one comes in pieces of this length (a game can print anything). */
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
    // A line longer than that is passed on in pieces, in order, rather than kept whole or cut.
    const out = lines.flatMap(pieces);
    if (this.partial.length > MAX_LINE_CHARS) {
      const whole = pieces(this.partial);
      this.partial = whole.pop()!;
      out.push(...whole);
    }
    return out;
  }
}

function pieces(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (line.length - start > MAX_LINE_CHARS) {
    let end = start + MAX_LINE_CHARS;
    if (/[\ud800-\udbff]/.test(line[end - 1]!)) end -= 1; // never between the halves of one character
    out.push(line.slice(start, end));
    start = end;
  }
  out.push(line.slice(start));
  return out;
}
