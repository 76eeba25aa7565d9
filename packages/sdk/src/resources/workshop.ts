import type { WorkshopAddRequest } from '@garrison/core';
import type { Caller, Result } from './calls.js';

/** A server's Steam Workshop items (docs/workshop.md). */
export const workshop = (c: Caller) => ({
  /** Downloads and installs items (ids or page URLs) and/or a collection's items: a job (`jobs.get`). */
  add: (server_id: number, body: WorkshopAddRequest): Result<'addWorkshopItems'> =>
    c.call('addWorkshopItems', { params: { server_id }, body }),
  /** Downloads again exactly the outdated items: a job, or an empty list (200) when none is outdated. */
  update: (server_id: number): Result<'updateWorkshopItems'> => c.call('updateWorkshopItems', { params: { server_id } }),
  list: (server_id: number): Result<'listWorkshopItems'> => c.call('listWorkshopItems', { params: { server_id } }),
  /** Its mod folder and the keys it brought (409 `MOD_IN_USE` while the running server has it enabled). */
  remove: (server_id: number, workshop_id: string): Result<'deleteWorkshopItem'> =>
    c.call('deleteWorkshopItem', { params: { server_id, workshop_id } }),
  /** Asks Steam now which items have updates; they are marked `outdated`. */
  check: (server_id: number): Result<'checkWorkshopItems'> => c.call('checkWorkshopItems', { params: { server_id } }),
});
