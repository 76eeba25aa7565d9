import type { Endpoints } from '@garrison/core';
import type { CallResult } from '../client.js';
import { server, type Caller, type Result } from './calls.js';

/** A config section's own fields: they are the game's, so the contract types them loosely. */
export type SectionPatch = Record<string, unknown>;
type SectionResult<K extends 'getConfigSection' | 'updateConfigSection'> = Promise<SectionPatch & CallResult<Endpoints[K]>>;

export const config = (c: Caller) => ({
  get: (id: number): Result<'getConfig'> => c.call('getConfig', { params: server(id) }),
  schema: (id: number): Result<'getConfigSchema'> => c.call('getConfigSchema', { params: server(id) }),
  preview: (id: number): Result<'previewConfig'> => c.call('previewConfig', { params: server(id) }),
  section: (id: number, section: string) =>
    c.call('getConfigSection', { params: { server_id: id, section } }) as SectionResult<'getConfigSection'>,
  download: (id: number, filename: string): Result<'downloadConfigFile'> =>
    c.call('downloadConfigFile', { params: { server_id: id, filename } }),
  /** A partial update of one section, guarded by the version read (409 CONFIG_VERSION_CONFLICT otherwise). */
  update: (id: number, section: string, patch: SectionPatch, config_version: number) =>
    c.call('updateConfigSection', {
      params: { server_id: id, section },
      body: { ...patch, config_version },
    }) as SectionResult<'updateConfigSection'>,
});
