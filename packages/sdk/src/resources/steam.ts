import { server, type Caller, type Body, type Result } from './calls.js';

/** SteamCMD: the Steam account it logs in with (admins), and installing or updating a server's dedicated server. */
export const steam = (c: Caller) => ({
  /** The account's name, whether a password is set and a Guard code waits; never the password. */
  account: (): Result<'getSteamAccount'> => c.call('getSteamAccount', {}),
  /** Sets the account; with `guard_code`, the code Steam asked for, used by the next login alone. */
  setAccount: (body: Body<'setSteamAccount'>): Result<'setSteamAccount'> => c.call('setSteamAccount', { body }),
  deleteAccount: (): Result<'deleteSteamAccount'> => c.call('deleteSteamAccount', {}),
  /** Queues the install (a background job: follow it with `client.jobs.get(job_id)`); the server must be stopped. */
  install: (id: number, body: Body<'installServer'> = {}): Result<'installServer'> => c.call('installServer', { params: server(id), body }),
  /** The installed build and branch, and whether Steam has a newer build (null: unknown). */
  installState: (id: number): Result<'getServerInstall'> => c.call('getServerInstall', { params: server(id) }),
});
