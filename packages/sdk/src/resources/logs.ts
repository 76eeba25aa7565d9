import { server, type Caller, type Query, type Result } from './calls.js';

export const logs = (c: Caller) => ({
  list: (id: number, query: Query<'listLogs'> = {}): Result<'listLogs'> => c.call('listLogs', { params: server(id), query }),
  clear: (id: number): Result<'clearLogs'> => c.call('clearLogs', { params: server(id) }),
  files: (id: number): Result<'listLogFiles'> => c.call('listLogFiles', { params: server(id) }),
  download: (id: number, filename: string): Result<'downloadLogFile'> => c.call('downloadLogFile', { params: { server_id: id, filename } }),
  /** The same file as a stream of bytes, read as it arrives (cancel it to stop reading). */
  read: (id: number, filename: string) => c.read('downloadLogFile', { server_id: id, filename }),
  deleteFile: (id: number, filename: string): Result<'deleteLogFile'> => c.call('deleteLogFile', { params: { server_id: id, filename } }),
});
