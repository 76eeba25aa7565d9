import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import { MessageResponse, ServerIdParams } from './common.js';
import {
  Ban, BanIdParams, BanListQuery, CreateBanRequest, CreatedBan, KickRequest, PlayerBanRequest, PlayerHistoryPage, PlayerHistoryQuery,
  PlayerList, PlayerSlotParams, SayRequest,
} from './players.js';

/** The players of a server: who is on, who was, kicks, bans, and a message to all of them. */
export const playerEndpoints = {
  listPlayers: defineEndpoint({
    operationId: 'listPlayers', onOwner: true, method: 'GET', path: '/servers/{server_id}/players', tag: 'players',
    summary: 'Players on the server now', access: 'any', scope: 'servers:read', params: ServerIdParams, status: 200, response: PlayerList,
    errors: ['NOT_FOUND'],
  }),
  playerHistory: defineEndpoint({
    operationId: 'playerHistory', method: 'GET', path: '/servers/{server_id}/players/history', tag: 'players',
    summary: 'Who was on the server, and when', access: 'any', scope: 'servers:read', params: ServerIdParams, query: PlayerHistoryQuery,
    status: 200, response: PlayerHistoryPage, errors: ['NOT_FOUND'],
  }),
  kickPlayer: defineEndpoint({
    operationId: 'kickPlayer', onOwner: true, method: 'POST', path: '/servers/{server_id}/players/{slot_id}/kick', tag: 'players',
    summary: 'Kick the player in a slot', access: 'admin', scope: 'players:moderate', capability: 'remote_admin', params: PlayerSlotParams,
    body: KickRequest, status: 200, response: MessageResponse,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'SERVER_NOT_RUNNING', 'NO_RCON_PASSWORD', 'RCON_ERROR'],
  }),
  banPlayer: defineEndpoint({
    operationId: 'banPlayer', onOwner: true, method: 'POST', path: '/servers/{server_id}/players/{slot_id}/ban', tag: 'players',
    summary: 'Ban the player in a slot by GUID, and kick them', access: 'admin', scope: 'players:moderate', capability: 'remote_admin',
    params: PlayerSlotParams, body: PlayerBanRequest, status: 201, response: Ban,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'SERVER_NOT_RUNNING', 'NO_RCON_PASSWORD', 'RCON_ERROR', 'VALIDATION_ERROR'],
  }),
  listBans: defineEndpoint({
    operationId: 'listBans', method: 'GET', path: '/servers/{server_id}/bans', tag: 'bans',
    summary: 'Bans of the server (active ones by default)', access: 'any', scope: 'servers:read', params: ServerIdParams,
    query: BanListQuery, status: 200, response: Type.Array(Ban), errors: ['NOT_FOUND'],
  }),
  createBan: defineEndpoint({
    operationId: 'createBan', onOwner: true, method: 'POST', path: '/servers/{server_id}/bans', tag: 'bans',
    summary: 'Ban a GUID or an IP address', access: 'admin', scope: 'players:moderate', params: ServerIdParams, body: CreateBanRequest,
    status: 201, response: CreatedBan, errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  }),
  revokeBan: defineEndpoint({
    operationId: 'revokeBan', onOwner: true, method: 'DELETE', path: '/servers/{server_id}/bans/{ban_id}', tag: 'bans',
    summary: 'Revoke a ban', access: 'admin', scope: 'players:moderate', params: BanIdParams, status: 200, response: MessageResponse,
    errors: ['NOT_FOUND'],
  }),
  rconSay: defineEndpoint({
    operationId: 'rconSay', onOwner: true, method: 'POST', path: '/servers/{server_id}/rcon/say', tag: 'rcon',
    summary: 'Send a message to every player', access: 'admin', scope: 'rcon', capability: 'remote_admin', params: ServerIdParams,
    body: SayRequest, status: 200, response: MessageResponse,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'NO_RCON_PASSWORD', 'SERVER_NOT_RUNNING', 'RCON_ERROR'],
  }),
} as const;
