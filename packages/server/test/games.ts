import { readFileSync } from 'node:fs';
// Helpers for tests that run real fake game processes under the service.
import { WebSocket } from 'ws';
import { after, before } from 'node:test';
import { freeGamePorts, installFakeGameaTemp, waitFor, withDeadline } from '@garrison/testkit';
import { type GarrisonOptions } from '@garrison/testkit/harness';
import { startHarness, withDatabase, type Harness } from './helpers.js';

export type FakeInstall = Awaited<ReturnType<typeof installFakeGameaTemp>>;

/** Settings that keep process tests short: a stop waits 3 s, auto-restart backs off 100 ms. */
export const FAST_SUPERVISION = { stopTimeoutMs: 3000, restartBackoffMs: 100, readyTimeoutMs: 30_000 };

/**
 * The service's timers for a game on a fake clock: supervision as FAST_SUPERVISION but a readiness limit the
 * clock's jumps never reach, the periodic reads out of the way, schedules looked at every second.
 */
export const GAME_ON_FAKE_CLOCK = {
  stopTimeoutMs: 3000,
  restartBackoffMs: 100,
  readyTimeoutMs: 3_600_000,
  metricsIntervalMs: 3_600_000,
  banExpiryCheckMs: 3_600_000,
  playersPollMs: 3_600_000,
  schedulePollMs: 1_000,
};

/**
 * A service and the fake game installed, for the tests of one `describe`: made before them (`prepare`
 * may add to the install first); after them, every game killed and everything removed.
 */
export function gameService(options: GarrisonOptions = FAST_SUPERVISION, prepare?: (fake: FakeInstall) => Promise<void>) {
  const suite = {} as { h: Harness; fake: FakeInstall };
  before(async () => {
    suite.fake = await installFakeGameaTemp();
    await prepare?.(suite.fake);
    suite.h = await startHarness(options);
  });
  after(async () => {
    await killGames(suite.h);
    await suite.h.close();
    await suite.fake.remove();
  });
  return suite;
}

/**
 * A `describe` whose tests start the service more than once on the same data, as an upgrade does: one
 * fake game for them all; every service started is closed after them, its games killed, newest first.
 */
export function upgradeSuite() {
  let fake: FakeInstall | undefined;
  const started: Harness[] = [];
  before(async () => {
    fake = await installFakeGameaTemp();
  });
  after(async () => {
    for (const h of started.reverse()) {
      await killGames(h);
      await h.close().catch(() => undefined);
    }
    await fake?.remove();
  });
  const keep = (h: Harness) => (started.push(h), h);
  return {
    get fake(): FakeInstall {
      if (!fake) throw new Error('the fake game is installed before the tests');
      return fake;
    },
    /** The service on data of its own. */
    start: async (options: GarrisonOptions = FAST_SUPERVISION) => keep(await startHarness(options)),
    /** The service again on `h`'s data, after `change` to its database while it was down (as an older version left it). */
    restart: async (
      h: Harness,
      change?: (knex: Parameters<Parameters<typeof withDatabase>[1]>[0]) => Promise<unknown>,
      options: GarrisonOptions = {},
    ) => {
      await h.server.close();
      if (change) await withDatabase(h, change);
      return keep(await startHarness({ ...FAST_SUPERVISION, ...options, dataDir: h.dataDir, databaseUrl: h.databaseUrl }));
    },
  };
}

/** Waits for a backup to finish and answers it. */
export const backupFinished = (h: Harness, serverId: number, id: number) =>
  waitFor(
    async () => {
      const b = (await h.api('GET', `/servers/${serverId}/backups/${id}`, { token: h.adminToken })).body.data;
      return b.status !== 'running' && b;
    },
    { what: `backup ${id} to finish` },
  );

/** A server record that runs the fake game, on free ports. */
export async function createGameServer(h: Harness, fake: FakeInstall, overrides: Record<string, unknown> = {}) {
  const res = await h.api('POST', '/servers', {
    token: h.adminToken,
    body: { name: 'Game', exe_path: fake.exePath, ...(await freeGamePorts()), ...overrides },
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; game_port: number; rcon_port: number; rcon_password: string; [k: string]: unknown };
}

/** A server of the fake game, started and running. */
export async function runningGameServer(h: Harness, fake: FakeInstall, overrides: Record<string, unknown> = {}) {
  const s = await createGameServer(h, fake, overrides);
  const res = await h.api('POST', `/servers/${s.id}/start`, { token: h.adminToken });
  if (res.status !== 200) throw new Error(`start failed: ${res.status} ${JSON.stringify(res.body)}`);
  await statusBecomes(h, s.id, 'running');
  return s;
}

export async function serverRecord(h: Harness, id: number) {
  return (await h.api('GET', `/servers/${id}`, { token: h.adminToken })).body.data;
}

/** Waits until the server's status is `status` (polling, with a deadline). */
export function statusBecomes(h: Harness, id: number, status: string, timeoutMs = 30_000) {
  return waitFor(
    async () => {
      const record = await serverRecord(h, id);
      return record?.status === status && record;
    },
    { timeoutMs, intervalMs: 50, what: `server ${id} to be ${status}` },
  );
}

/**
 * Whether the process still runs. A zombie does not: a game started by an in-process harness stays a
 * child of the test process after that harness stops, and lingers as a zombie between its exit and
 * Node reaping it, while `kill(pid, 0)` still succeeds.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Kills every game process recorded in the harness's database (each leads its own process group).
 * For `after`/`finally`: games outlive the service by design, so a test must end them itself.
 */
export async function killGames(h: Harness, pids: number[] = []): Promise<void> {
  const recorded = await withDatabase(h, (knex) => knex('processes').where({ role: 'server' }).whereNotNull('pid').pluck('pid')).catch(
    () => [] as number[],
  );
  for (const pid of new Set([...recorded, ...pids])) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await waitFor(() => [...recorded, ...pids].every((pid) => !isAlive(pid)), { timeoutMs: 10_000, what: 'the games to die' }).catch(
    () => {},
  );
}

/** A WebSocket client that keeps every message, for assertions. */
export async function wsClient(baseUrl: string, pathAndQuery: string) {
  const socket = new WebSocket(baseUrl.replace(/^http/, 'ws') + pathAndQuery);
  const messages: any[] = [];
  let closed: { code: number; reason: string } | null = null;
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  const closing = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve((closed = { code, reason: String(reason) }))),
  );
  socket.on('error', () => {});
  // Ready once the service has accepted the subscription (its `connected` message): an event published
  // between the socket's opening and that would not reach it. A refused socket is ready when it closes.
  await withDeadline(
    new Promise<void>((resolve, reject) => {
      socket.on('message', (data) => JSON.parse(String(data)).type === 'connected' && resolve());
      socket.once('close', () => resolve());
      socket.once('error', reject);
    }),
    10_000,
    'the WebSocket to be accepted',
  );
  return {
    socket,
    messages,
    get closed() {
      return closed;
    },
    /** The close, once it comes (a deadline runs only while someone waits). */
    get closing() {
      return withDeadline(closing, 15_000, 'the WebSocket to close');
    },
    next: (predicate: (m: any) => boolean, what: string, timeoutMs = 30_000) =>
      waitFor(() => messages.find(predicate), { timeoutMs, what }),
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    close: () => socket.terminate(),
  };
}

/**
 * Moves a fake clock on a quarter second at a time until `predicate` holds: each step runs the timers
 * that fall due and lets real I/O (requests, the game) run before the next.
 */
export function advanceUntil<T>(
  clock: { advance(ms: number): Promise<void> },
  predicate: () => Promise<T | false | null | undefined>,
  what: string,
  stepMs = 250,
): Promise<T> {
  return waitFor(async () => (await predicate()) || (await clock.advance(stepMs), false), { timeoutMs: 60_000, intervalMs: 1, what });
}
