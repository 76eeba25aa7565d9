import { open, readdir, readlink, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { inject, injectable } from 'tsyringe';
import { ApiError, type LogParser } from '@garrison/core';
import { ServerService } from '../servers/service.js';
import { fileInFolder } from '../files/in-folder.js';

/** The game's own log files (for `gamea`: the `.rpt` files in `<exe dir>/server/`): listed, streamed, deleted. */
@injectable()
export class LogFileService {
  constructor(
    @inject(ServerService) private readonly servers: ServerService,
  ) {}

  private async folder(serverId: number): Promise<{ dir: string; parser: LogParser; pid: number | null }> {
    const { row, capability: parser, ctx } = await this.servers.withCapability(serverId, 'log_parser');
    return { dir: parser.logDirectory(ctx), parser, pid: row.pid };
  }

  async list(serverId: number): Promise<{ filename: string; size_bytes: number; modified_at: string }[]> {
    const { dir, parser } = await this.folder(serverId);
    const names = await readdir(dir).catch(() => [] as string[]);
    const files = [];
    for (const name of names.filter((n) => n.toLowerCase().endsWith(parser.logFileExtension.toLowerCase())).sort()) {
      const path = await fileInFolder(dir, name, parser.logFileExtension).catch(() => null);
      const stats = path && (await stat(path).catch(() => null));
      if (stats) files.push({ filename: name, size_bytes: stats.size, modified_at: stats.mtime.toISOString() });
    }
    return files;
  }

  /** The file as a stream: opened before answering, so a file gone meanwhile is a 404, not a broken answer. */
  async open(serverId: number, filename: string): Promise<Readable> {
    const { dir, parser } = await this.folder(serverId);
    const path = await fileInFolder(dir, filename, parser.logFileExtension);
    const handle = await open(path, 'r').catch(() => {
      throw new ApiError('NOT_FOUND', `no file ${JSON.stringify(filename)}`);
    });
    return handle.createReadStream();
  }

  async delete(serverId: number, filename: string): Promise<void> {
    const { dir, parser, pid } = await this.folder(serverId);
    const path = await fileInFolder(dir, filename, parser.logFileExtension);
    if (pid !== null && (await openedBy(pid)).includes(path)) {
      throw new ApiError('CONFLICT', `${filename} is the log the running game is writing; stop the server first`);
    }
    await unlink(path).catch(() => {
      throw new ApiError('NOT_FOUND', `no file ${JSON.stringify(filename)}`);
    });
  }
}

/** The files a process holds open (Linux /proc). */
async function openedBy(pid: number): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  return Promise.all(fds.map((fd) => readlink(join(`/proc/${pid}/fd`, fd)).catch(() => '')));
}
