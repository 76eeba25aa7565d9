import { defineEndpoint } from '../endpoint.js';
import { ServerIdParams } from './common.js';
import { ConfigPreview, ConfigRead, ConfigSectionParams, ConfigSectionRead, ConfigSectionUpdate, ConfigWidgetHints } from './config.js';
import { FileNameParams, FileText } from './live.js';

/** A server's config sections, and the files generated from them. */
export const configEndpoints = {
  getConfig: defineEndpoint({
    operationId: 'getConfig', method: 'GET', path: '/servers/{server_id}/config', tag: 'config', summary: 'All config sections',
    access: 'any', scope: 'servers:read', params: ServerIdParams, status: 200, response: ConfigRead, errors: ['NOT_FOUND'],
  }),
  getConfigSchema: defineEndpoint({
    operationId: 'getConfigSchema', method: 'GET', path: '/servers/{server_id}/config/schema', tag: 'config',
    summary: 'Widget hints per section and field', access: 'any', scope: 'servers:read', params: ServerIdParams, status: 200,
    response: ConfigWidgetHints, errors: ['NOT_FOUND'],
  }),
  previewConfig: defineEndpoint({
    operationId: 'previewConfig', method: 'GET', path: '/servers/{server_id}/config/preview', tag: 'config',
    summary: 'The config files as they would be written', access: 'admin', scope: 'files', capability: 'config_generator',
    params: ServerIdParams, status: 200, response: ConfigPreview, errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  getConfigSection: defineEndpoint({
    operationId: 'getConfigSection', method: 'GET', path: '/servers/{server_id}/config/{section}', tag: 'config',
    summary: 'One config section', access: 'any', scope: 'servers:read', params: ConfigSectionParams, status: 200,
    response: ConfigSectionRead, errors: ['NOT_FOUND'],
  }),
  downloadConfigFile: defineEndpoint({
    operationId: 'downloadConfigFile', method: 'GET', path: '/servers/{server_id}/config/download/{filename}', tag: 'config',
    summary: 'One generated config file, as text (may hold plaintext credentials)', access: 'admin', scope: 'files',
    capability: 'config_generator', params: FileNameParams, status: 200, response: FileText, envelope: 'none',
    responseMediaType: 'text/plain', errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  updateConfigSection: defineEndpoint({
    operationId: 'updateConfigSection', method: 'PUT', path: '/servers/{server_id}/config/{section}', tag: 'config',
    summary: 'Change some fields of a section', access: 'admin', scope: 'servers:write', params: ConfigSectionParams,
    body: ConfigSectionUpdate, invalidBodyCode: 'INVALID_CONFIG', status: 200, response: ConfigSectionRead,
    errors: ['NOT_FOUND', 'CONFIG_VERSION_CONFLICT', 'INVALID_CONFIG', 'PORT_IN_USE'],
  }),
} as const;
