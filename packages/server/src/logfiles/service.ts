import { open, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { inject, injectable } from 'tsyringe';
import { ApiError, type Actor, type LogParser } from '@garrison/core';
import { ServerService } from '../servers/service.js';
import { AuditService } from '../audit/service.js';
import { fileInFolder, filesInFolder, notFoundIfUnseen, type FileKind } from '../files/in-folder.js';
import { openFiles } from '../processes/proc.js';

/** The game's own log files (in the folder the adapter names for the server): listed, streamed, deleted. */
@injectable()
export class LogFileService {
  constructor(
    @inject(ServerService) private readonly servers: ServerService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  private async folder(serverId: number): Promise<{ dir: string; logs: FileKind; pid: number | null }> {
    const { row, capability: parser, ctx } = await this.servers.withCapability(serverId, 'log_parser');
    return { dir: parser.logDirectory(ctx), logs: logFilesOf(parser), pid: row.pid };
  }

  async list(serverId: number): Promise<{ filename: string; size_bytes: number; modified_at: string }[]> {
    const { dir, logs } = await this.folder(serverId);
    return (await filesInFolder(dir, logs)).map((f) => ({
      filename: f.name,
      size_bytes: f.size,
      modified_at: f.modified.toISOString(),
    }));
  }

  /** The file as a stream: opened before answering, so a file gone meanwhile is a 404, not a broken answer. */
  async open(serverId: number, filename: string): Promise<Readable> {
    const { dir, logs } = await this.folder(serverId);
    const path = await fileInFolder(dir, filename, logs);
    const handle = await open(path, 'r').catch(notFoundIfUnseen(`no file ${JSON.stringify(filename)}`));
    return handle.createReadStream();
  }

  async delete(serverId: number, filename: string, actor: Actor): Promise<void> {
    const { dir, logs, pid } = await this.folder(serverId);
    const path = await fileInFolder(dir, filename, logs);
    if (pid !== null && (await openFiles(pid)).includes(path)) {
      throw new ApiError('CONFLICT', `${filename} is the log the running game is writing; stop the server first`);
    }
    await unlink(path).catch(notFoundIfUnseen(`no file ${JSON.stringify(filename)}`));
    await this.audit.recordAlone({ serverId, type: 'log_file_deleted', actor, detail: { filename } });
  }
}

/** The game's log files, as the adapter picks them. */
const logFilesOf = (parser: LogParser): FileKind => ({ label: 'log', accepts: (name) => parser.isLogFile(name) });
