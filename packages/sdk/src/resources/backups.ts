import { server, type Caller, type Body, type Result } from './calls.js';

export const backups = (c: Caller) => ({
  list: (id: number): Result<'listBackups'> => c.call('listBackups', { params: server(id) }),
  /** Starts a backup (answered at once, `running`; `backup` events and `get` follow it). */
  create: (id: number, body: Body<'createBackup'> = {}): Result<'createBackup'> => c.call('createBackup', { params: server(id), body }),
  get: (id: number, backup_id: number): Result<'getBackup'> => c.call('getBackup', { params: { server_id: id, backup_id } }),
  /** The archive as a Blob (tar.gz). */
  download: (id: number, backup_id: number) =>
    c.call('downloadBackup', { params: { server_id: id, backup_id } }) as unknown as Promise<Blob>,
  update: (id: number, backup_id: number, body: Body<'updateBackup'>): Result<'updateBackup'> =>
    c.call('updateBackup', { params: { server_id: id, backup_id }, body }),
  /** Puts the backup back; the server must be stopped (409 SERVER_NOT_STOPPED). */
  restore: (id: number, backup_id: number): Result<'restoreBackup'> => c.call('restoreBackup', { params: { server_id: id, backup_id } }),
  delete: (id: number, backup_id: number): Result<'deleteBackup'> => c.call('deleteBackup', { params: { server_id: id, backup_id } }),
});
