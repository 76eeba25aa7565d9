import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import { MessageResponse, ServerIdParams } from './common.js';
import { WorkshopCheck, WorkshopItem, WorkshopItemParams } from './workshop.js';

/** A server's Steam Workshop items: listed, removed, checked for updates. */
export const workshopEndpoints = {
  listWorkshopItems: defineEndpoint({
    operationId: 'listWorkshopItems',
    onOwner: true,
    method: 'GET',
    path: '/servers/{server_id}/workshop',
    tag: 'workshop',
    summary: "The server's Workshop items",
    access: 'any',
    scope: 'servers:read',
    params: ServerIdParams,
    status: 200,
    response: Type.Array(WorkshopItem),
    errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  deleteWorkshopItem: defineEndpoint({
    operationId: 'deleteWorkshopItem',
    onOwner: true,
    method: 'DELETE',
    path: '/servers/{server_id}/workshop/{workshop_id}',
    tag: 'workshop',
    summary: 'Remove a Workshop item and its keys',
    access: 'admin',
    scope: 'files',
    params: WorkshopItemParams,
    status: 200,
    response: MessageResponse,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'WORKSHOP_ITEM_NOT_FOUND', 'MOD_IN_USE', 'CONFLICT'],
  }),
  checkWorkshopItems: defineEndpoint({
    operationId: 'checkWorkshopItems',
    onOwner: true,
    method: 'POST',
    path: '/servers/{server_id}/workshop/check',
    tag: 'workshop',
    summary: 'Check the Workshop items for updates now',
    access: 'admin',
    scope: 'servers:write',
    params: ServerIdParams,
    status: 200,
    response: WorkshopCheck,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'STEAM_API_UNAVAILABLE'],
  }),
} as const;
