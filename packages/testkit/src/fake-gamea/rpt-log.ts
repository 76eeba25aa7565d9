import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { basename, join } from 'node:path';

const pad = (n: number) => String(n).padStart(2, '0');

/** The game's `.rpt` log: `<profiles>/<exe name>_YYYY-MM-DD_HH-MM-SS.rpt`, `HH:MM:SS message` lines, copied to stdout. */
export class RptLog {
  readonly path: string;
  private readonly stream: WriteStream;

  constructor(profilesDir: string, exePath: string) {
    mkdirSync(profilesDir, { recursive: true });
    const d = new Date();
    const stamp = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}_${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;
    this.path = join(profilesDir, `${basename(exePath).replace(/\.exe$/i, '')}_${stamp}.rpt`);
    this.stream = createWriteStream(this.path, { flags: 'a' });
  }

  write(message: string): void {
    const d = new Date();
    const line = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${message}\n`;
    this.stream.write(line);
    process.stdout.write(line);
  }

  /** Flushes what was written; the process may exit after this resolves. */
  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(resolve));
  }
}
