import { multipartBody, type UploadOptions, type UploadSource } from '../upload.js';
import { browserUploads } from '../form-upload.js';
import { server, type Caller, type Body, type Result } from './calls.js';

export const missions = (c: Caller) => ({
  list: (id: number): Result<'listMissions'> => c.call('listMissions', { params: server(id) }),
  /**
   * Uploads a mission file from a Blob or File, a path (Node) or a stream, streamed as it is read,
   * with progress; `filename` defaults to a path's base name. In a browser a Blob goes through
   * XMLHttpRequest, the one way there to stream a file with upload progress over HTTP/1.1.
   */
  upload: async (id: number, source: UploadSource, filename?: string, options: UploadOptions = {}): Result<'uploadMission'> => {
    const name = filename ?? (typeof source === 'string' ? source.split(/[\\/]/).pop() : (source as { name?: string }).name);
    if (!name) throw new TypeError('missions.upload needs a file name for a source that has none');
    if (source instanceof Blob && browserUploads()) {
      const form = new FormData();
      form.append('file', source, name);
      return c.call('uploadMission', { params: server(id), body: form, onProgress: options.onProgress });
    }
    const { body, contentType } = await multipartBody(source, name, options);
    return c.call('uploadMission', { params: server(id), body: { stream: body, contentType } });
  },
  rotation: (id: number): Result<'getRotation'> => c.call('getRotation', { params: server(id) }),
  setRotation: (id: number, missions: Body<'setRotation'>['missions'], config_version: number): Result<'setRotation'> =>
    c.call('setRotation', { params: server(id), body: { missions, config_version } }),
  delete: (id: number, filename: string): Result<'deleteMission'> => c.call('deleteMission', { params: { server_id: id, filename } }),
  /** Plays an installed mission now (the game's own command; the rotation is left as it is). */
  play: (id: number, name: string, difficulty?: string): Result<'playMission'> =>
    c.call('playMission', { params: server(id), body: { name, ...(difficulty ? { difficulty } : {}) } }),
});
