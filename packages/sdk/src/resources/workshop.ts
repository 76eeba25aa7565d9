import type { Caller, Result } from './calls.js';

/** A server's Steam Workshop items (docs/workshop.md). */
export const workshop = (c: Caller) => ({
  list: (server_id: number): Result<'listWorkshopItems'> => c.call('listWorkshopItems', { params: { server_id } }),
  /** Its mod folder and the keys it brought (409 `MOD_IN_USE` while the running server has it enabled). */
  remove: (server_id: number, workshop_id: string): Result<'deleteWorkshopItem'> =>
    c.call('deleteWorkshopItem', { params: { server_id, workshop_id } }),
  /** Asks Steam now which items have updates; they are marked `outdated`. */
  check: (server_id: number): Result<'checkWorkshopItems'> => c.call('checkWorkshopItems', { params: { server_id } }),
});
