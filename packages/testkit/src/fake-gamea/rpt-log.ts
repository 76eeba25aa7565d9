import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { basename, join } from 'node:path';

const pad = (n: number) => String(n).padStart(2, '0');

/** server.cfg's `timeStampFormat`: what the game writes in front of each line. */
export type TimeStampFormat = 'none' | 'short' | 'full';

/**
 * The game's `.rpt` log: `<profiles>/<exe name>_YYYY-MM-DD_HH-MM-SS.rpt`, copied to stdout, each line
 * after the time as `timeStampFormat` says: nothing, `HH:MM:SS` (the hour padded with a space, as the
 * game does) or `YYYY/MM/DD, HH:MM:SS`.
 */
export class RptLog {
  readonly path: string;
  private readonly stream: WriteStream;

  constructor(
    profilesDir: string,
    exePath: string,
    private readonly format: TimeStampFormat = 'short',
  ) {
    mkdirSync(profilesDir, { recursive: true });
    const d = new Date();
    const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    const stamp = `${day}_${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;
    this.path = join(profilesDir, `${basename(exePath).replace(/\.exe$/i, '')}_${stamp}.rpt`);
    this.stream = createWriteStream(this.path, { flags: 'a' });
  }

  write(message: string): void {
    const d = new Date();
    const time = `${String(d.getHours()).padStart(2, ' ')}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    const prefix =
      this.format === 'none'
        ? ''
        : this.format === 'full'
          ? `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())}, ${time} `
          : `${time} `;
    const line = `${prefix}${message}\n`;
    this.stream.write(line);
    process.stdout.write(line);
  }

  /** Flushes what was written; the process may exit after this resolves. */
  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(resolve));
  }
}
