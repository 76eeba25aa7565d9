import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import { Backup, BackupDetail, BackupIdParams, CreateBackupRequest, UpdateBackupRequest } from './backups.js';
import { MessageResponse, ServerIdParams } from './common.js';

/** Backups of a server's state: made, locked, downloaded, put back, deleted. */
export const backupEndpoints = {
  listBackups: defineEndpoint({
    operationId: 'listBackups', method: 'GET', path: '/servers/{server_id}/backups', tag: 'backups',
    summary: "The server's backups, newest first", access: 'any', scope: 'servers:read', params: ServerIdParams, status: 200,
    response: Type.Array(Backup), errors: ['NOT_FOUND'],
  }),
  createBackup: defineEndpoint({
    operationId: 'createBackup', onOwner: true, method: 'POST', path: '/servers/{server_id}/backups', tag: 'backups',
    summary: "Back up the server's state (profile, generated files, BattlEye's folder with the bans; missions when asked)",
    notes:
      'Answers at once with the backup, `running`; `backup` events follow its progress, and its status becomes `done` (with size and ' +
      'SHA-256) or `failed` (with the reason). A running server may be backed up: the manifest says so.',
    access: 'admin', scope: 'servers:write', params: ServerIdParams, body: CreateBackupRequest, bodyOptional: true, status: 202,
    response: Backup, errors: ['NOT_FOUND'],
  }),
  getBackup: defineEndpoint({
    operationId: 'getBackup', method: 'GET', path: '/servers/{server_id}/backups/{backup_id}', tag: 'backups',
    summary: 'One backup, with its manifest (secrets masked)', access: 'any', scope: 'servers:read', params: BackupIdParams, status: 200,
    response: BackupDetail, errors: ['NOT_FOUND'],
  }),
  downloadBackup: defineEndpoint({
    operationId: 'downloadBackup', onOwner: true, method: 'GET', path: '/servers/{server_id}/backups/{backup_id}/download', tag: 'backups',
    summary: 'The archive (tar.gz, streamed); it holds the config with its secrets', access: 'admin', scope: 'files',
    params: BackupIdParams, status: 200, response: Type.String({ format: 'binary' }), envelope: 'none',
    responseMediaType: 'application/gzip', errors: ['NOT_FOUND', 'CONFLICT'],
  }),
  updateBackup: defineEndpoint({
    operationId: 'updateBackup', method: 'PUT', path: '/servers/{server_id}/backups/{backup_id}', tag: 'backups',
    summary: 'Lock a backup (never pruned nor deleted) or change its note', access: 'admin', scope: 'servers:write', params: BackupIdParams,
    body: UpdateBackupRequest, status: 200, response: Backup, errors: ['NOT_FOUND'],
  }),
  restoreBackup: defineEndpoint({
    operationId: 'restoreBackup', onOwner: true, method: 'POST', path: '/servers/{server_id}/backups/{backup_id}/restore', tag: 'backups',
    summary: "Put a backup back: the server's files and config sections as they were (the server must be stopped)",
    notes:
      'The checksum is verified first; the archive is extracted beside the server\'s folders and swapped in by renames; a failed restore ' +
      'leaves everything as it was.',
    access: 'admin', scope: 'servers:write', params: BackupIdParams, status: 200, response: MessageResponse,
    errors: ['NOT_FOUND', 'SERVER_NOT_STOPPED', 'CONFLICT', 'VALIDATION_ERROR'],
  }),
  deleteBackup: defineEndpoint({
    operationId: 'deleteBackup', onOwner: true, method: 'DELETE', path: '/servers/{server_id}/backups/{backup_id}', tag: 'backups',
    summary: 'Delete a backup and its archive (not while locked)', access: 'admin', scope: 'servers:write', params: BackupIdParams,
    status: 200, response: MessageResponse, errors: ['NOT_FOUND', 'CONFLICT'],
  }),
} as const;
