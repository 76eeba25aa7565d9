import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import type { ErrorCode } from '../errors.js';
import { MessageResponse, ServerIdParams } from './common.js';
import { FileNameParams } from './live.js';
import {
  EnabledModsResult, EnabledModsUpdate, MissionList, MissionPlaying, MissionUpload, ModList, PlayMissionRequest, PresetDiff, PresetQuery,
  PresetUpload, Rotation, RotationSaved, RotationUpdate, UploadedMission,
} from './missions.js';

/** A mission upload, at either of its two paths. */
const missionUpload = {
  method: 'POST', tag: 'missions', access: 'admin', scope: 'files', capability: 'mission_manager', params: ServerIdParams, upload: true,
  body: MissionUpload, status: 201, response: UploadedMission,
  errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'NO_FILENAME', 'ADAPTER_ERROR', 'FILE_TOO_LARGE', 'VALIDATION_ERROR'] as ErrorCode[],
} as const;

/** Mission files, the rotation, and a mission played now. */
export const missionEndpoints = {
  listMissions: defineEndpoint({
    operationId: 'listMissions', onOwner: true, method: 'GET', path: '/servers/{server_id}/missions', tag: 'missions',
    summary: 'Mission files on the server', access: 'any', scope: 'servers:read', capability: 'mission_manager', params: ServerIdParams,
    status: 200, response: MissionList, errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  uploadMission: defineEndpoint({
    ...missionUpload, operationId: 'uploadMission', onOwner: true, path: '/servers/{server_id}/missions',
    summary: 'Upload a mission file (multipart part `file`), streamed to disk',
  }),
  uploadMissionAlias: defineEndpoint({
    ...missionUpload, operationId: 'uploadMissionAlias', onOwner: true, path: '/servers/{server_id}/missions/upload',
    summary: 'The same upload, at the path of the design-stage variant',
  }),
  getRotation: defineEndpoint({
    operationId: 'getRotation', method: 'GET', path: '/servers/{server_id}/missions/rotation', tag: 'missions',
    summary: 'The mission rotation', access: 'any', scope: 'servers:read', capability: 'mission_manager', params: ServerIdParams,
    status: 200, response: Rotation, errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  setRotation: defineEndpoint({
    operationId: 'setRotation', onOwner: true, method: 'PUT', path: '/servers/{server_id}/missions/rotation', tag: 'missions',
    summary: "Replace the rotation (guarded by the server section's config_version)", access: 'admin', scope: 'servers:write',
    capability: 'mission_manager', params: ServerIdParams, body: RotationUpdate, status: 200, response: RotationSaved,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'CONFIG_VERSION_CONFLICT', 'VALIDATION_ERROR'],
  }),
  playMission: defineEndpoint({
    operationId: 'playMission', onOwner: true, method: 'POST', path: '/servers/{server_id}/missions/play', tag: 'missions',
    summary: 'Play an installed mission now, in the game\'s own command for it (the players are taken to it at once)',
    notes:
      'The adapter names the command, sent over remote admin. The rotation is not changed: the next mission after this one is the ' +
      'game\'s choice. Audited as `mission_played`.',
    // rcon's scope: a command to the game, as rcon/say is.
    access: 'admin', scope: 'rcon', capability: 'mission_manager', params: ServerIdParams, body: PlayMissionRequest, status: 200,
    response: MissionPlaying,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'VALIDATION_ERROR', 'SERVER_NOT_RUNNING', 'NO_RCON_PASSWORD', 'RCON_ERROR'],
  }),
  deleteMission: defineEndpoint({
    operationId: 'deleteMission', onOwner: true, method: 'DELETE', path: '/servers/{server_id}/missions/{filename}', tag: 'missions',
    summary: 'Delete a mission file that is not in the rotation', access: 'admin', scope: 'files', capability: 'mission_manager',
    params: FileNameParams, status: 200, response: MessageResponse,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'MISSION_IN_ROTATION', 'VALIDATION_ERROR'],
  }),
} as const;

/** The mods beside the server's executable, which of them load, and launcher presets. */
export const modEndpoints = {
  listMods: defineEndpoint({
    operationId: 'listMods', onOwner: true, method: 'GET', path: '/servers/{server_id}/mods', tag: 'mods',
    summary: "The mod folders beside the server's executable", access: 'any', scope: 'servers:read', capability: 'mod_manager',
    params: ServerIdParams, status: 200, response: ModList, errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  setEnabledMods: defineEndpoint({
    operationId: 'setEnabledMods', onOwner: true, method: 'PUT', path: '/servers/{server_id}/mods/enabled', tag: 'mods',
    summary: 'Replace the enabled mods (each a client or server mod); they load at the next start', access: 'admin', scope: 'servers:write',
    capability: 'mod_manager', params: ServerIdParams, body: EnabledModsUpdate, status: 200, response: EnabledModsResult,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'VALIDATION_ERROR', 'VERSION_CONFLICT'],
  }),
  importModPreset: defineEndpoint({
    operationId: 'importModPreset', onOwner: true, method: 'POST', path: '/servers/{server_id}/mods/preset', tag: 'mods',
    summary: 'Compare a launcher preset with the installed and enabled mods; with apply=true, enable its installed mods',
    notes:
      'The preset HTML as the body (text/html) or as the multipart part `file`, 1 MiB at most. Workshop mods are matched by the id in ' +
      'their folder\'s meta.cpp, local mods by folder name.',
    access: 'admin', scope: 'servers:write', capability: 'mod_manager', params: ServerIdParams, query: PresetQuery, upload: true,
    body: PresetUpload, status: 200, response: PresetDiff,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'VALIDATION_ERROR', 'FILE_TOO_LARGE', 'VERSION_CONFLICT'],
  }),
  exportModPreset: defineEndpoint({
    operationId: 'exportModPreset', onOwner: true, method: 'GET', path: '/servers/{server_id}/mods/preset', tag: 'mods',
    summary: "The enabled client mods as a launcher preset, for the server's players", access: 'any', scope: 'servers:read',
    capability: 'mod_manager', params: ServerIdParams, status: 200, response: Type.String(), envelope: 'none',
    responseMediaType: 'text/html', errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
} as const;
