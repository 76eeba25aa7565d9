import assert from 'node:assert/strict';
import { FAKE_STEAM_ACCOUNTS, FAKE_STEAM_IDS, FakeSteamWorld, waitFor } from '@garrison/testkit';
import { gamea } from '@garrison/adapter-gamea';
import type { Harness } from './helpers.js';

/*
 * What the Workshop tests share: a fake Steam whose game is the first game's Workshop app (the account
 * `owner` owns it), and the calls that drive a download job through the API.
 */

export const APP = String(gamea.steam?.workshop_app_id);
export const { owner } = FAKE_STEAM_ACCOUNTS;

/** A fake Steam world with the first game's Workshop app, in the environment the service spawns steamcmd with. */
export function workshopWorld(): FakeSteamWorld {
  const world = FakeSteamWorld.create();
  Object.assign(process.env, world.env());
  world.edit((s) => {
    s.apps[APP] = { ...s.apps[FAKE_STEAM_IDS.gameApp], name: 'The first game' };
    s.accounts[owner.username].owns.push(APP);
  });
  return world;
}

type JobView = {
  id: number;
  kind: string;
  status: string;
  progress: number;
  error?: { code: string; message: string };
  log: string[];
};

export function workshopCalls(h: Harness) {
  const api = (method: string, path: string, body?: unknown) => h.api(method, path, { token: h.adminToken, body });
  const job = async (id: number) => (await api('GET', `/jobs/${id}`)).body.data as JobView;
  const ended = async (id: number) => {
    const ends = () => job(id).then((j) => (j.status === 'queued' || j.status === 'running' ? null : j));
    return waitFor(ends, { timeoutMs: 30_000, what: `job ${id} ended` });
  };
  /** POST /servers/{id}/workshop: the job's id (202). */
  const add = async (serverId: number, body: Record<string, unknown>) => {
    const res = await api('POST', `/servers/${serverId}/workshop`, body);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.data.job_id as number;
  };
  /** Adds and waits for the job's end, which must be `status`. */
  const install = async (serverId: number, body: Record<string, unknown>, status = 'done') => {
    const ran = await ended(await add(serverId, body));
    assert.equal(ran.status, status, JSON.stringify(ran));
    return ran;
  };
  const setAccount = async () => assert.equal((await api('PUT', '/steam/account', owner)).status, 200);
  return { api, job, ended, add, install, setAccount };
}

/** The Workshop items each finished steamcmd run downloaded, after the `since`th run. */
export function downloadsOf(world: FakeSteamWorld, since = 0): string[][] {
  return world
    .invocations()
    .slice(since)
    .map((run) => run.argv.flatMap((arg, i) => (arg === '+workshop_download_item' ? [run.argv[i + 2]] : [])))
    .filter((items) => items.length > 0);
}
