import { closeSync, existsSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `MM/DD/YYYY - HH:MM:SS`, local time, as srcds stamps its log lines. */
function logTime(d = new Date()): string {
  const day = `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()}`;
  return `${day} - ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * The game's log: `logs/L<MMDD><nnn>.log` under the game folder, nnn the next number free that day,
 * lines `L MM/DD/YYYY - HH:MM:SS: message`, each also echoed to stdout (srcds' `sv_logecho 1`). As srcds
 * does, every map start opens a new file (`Log file closed` ends the old one), so the newest file is the
 * one being written.
 */
export class GameLog {
  private fd: number | null = null;
  private current = '';

  constructor(private readonly gameDir: string) {}

  /** The file being written, relative to the game folder (`logs/L1127000.log`). */
  get file(): string {
    return this.current;
  }

  /** Closes the current file (if any) and starts the next one. */
  rotate(version: string): void {
    this.close();
    const dir = join(this.gameDir, 'logs');
    mkdirSync(dir, { recursive: true });
    const d = new Date();
    const prefix = `L${pad(d.getMonth() + 1)}${pad(d.getDate())}`;
    const used = readdirSync(dir)
      .map((f) => new RegExp(`^${prefix}(\\d{3})\\.log$`, 'i').exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]));
    let n = used.length ? Math.max(...used) + 1 : 0;
    while (existsSync(join(dir, `${prefix}${pad(n, 3)}.log`))) n += 1;
    this.current = `logs/${prefix}${pad(n, 3)}.log`;
    this.fd = openSync(join(this.gameDir, this.current), 'a');
    this.write(`Log file started (file "${this.current}") (game "${this.gameDir}") (version "${version}")`);
  }

  write(message: string): void {
    const line = `L ${logTime()}: ${message}\n`;
    if (this.fd !== null) writeSync(this.fd, line);
    process.stdout.write(line);
  }

  close(): void {
    if (this.fd === null) return;
    this.write('Log file closed');
    closeSync(this.fd);
    this.fd = null;
  }
}
