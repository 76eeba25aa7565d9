import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_UPDATE_STATES, FAKE_STEAM_ACCOUNTS, FAKE_STEAM_IDS, FakeSteamWorld, installFakeSteamcmd, waitFor } from '@garrison/testkit';
import { FakeClock } from '@garrison/server';
import { createServer, expectError, setStatus, startHarness, withDatabase, type Harness } from './helpers.js';

// The fake steamcmd reads its world from the environment it is spawned with: the service's own.
const world = FakeSteamWorld.create();
Object.assign(process.env, world.env());
after(() => world.remove());

const TIMEOUT = { timeout: 90_000 };
/** The first game's dedicated server, as its adapter declares it; the fake world gets an app of that id. */
const APP = '233780';
const BRANCH_PASSWORD = 'Prof-Branch-Secret-7';
const { owner, guarded } = FAKE_STEAM_ACCOUNTS;
const THIRD = fileURLToPath(new URL('./fixtures/third-game', import.meta.url));

function prepareWorld(): void {
  world.edit((s) => {
    const server = s.apps[FAKE_STEAM_IDS.serverApp];
    s.apps[APP] = {
      ...server,
      branches: {
        public: { buildid: '10000', timeupdated: 1_700_000_000 },
        profiling: { buildid: '10001', timeupdated: 1_700_000_060, password: BRANCH_PASSWORD },
        performance: { buildid: '10002', timeupdated: 1_700_000_120 },
      },
    };
    for (const account of Object.values(s.accounts)) if (account.owns.includes(FAKE_STEAM_IDS.serverApp)) account.owns.push(APP);
  });
}

describe('installing the dedicated server with SteamCMD', () => {
  let h: Harness;
  let root: string;
  let serverId: number;
  const api = (method: string, path: string, body?: unknown) => h.api(method, path, { token: h.adminToken, body });
  const job = async (id: number) => (await api('GET', `/jobs/${id}`)).body.data;
  const ended = (id: number) =>
    waitFor(async () => ((await job(id)).status === 'queued' || (await job(id)).status === 'running' ? null : job(id)), {
      timeoutMs: 30_000,
      what: `job ${id} ended`,
    });
  const install = async (body?: Record<string, unknown>) => {
    const res = await api('POST', `/servers/${serverId}/install`, body);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.data.job_id as number;
  };
  const setAccount = async (body: Record<string, unknown>) => {
    const res = await api('PUT', '/steam/account', body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  };
  const everything: string[] = []; // every answer and log seen: the passwords must be in none

  before(async () => {
    prepareWorld();
    root = await mkdtemp(join(tmpdir(), 'garrison-steam-install-'));
    const { executables } = await installFakeSteamcmd(join(root, 'bin'));
    h = await startHarness({ steamcmdPath: executables[0], steamDir: join(root, 'steam'), plugins: [THIRD] });
    serverId = (await createServer(h, { exe_path: join(root, 'server', 'gameaserver_x64.exe') })).id;
  });
  after(async () => {
    await h?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('keeps one Steam account for admins, its password never shown', TIMEOUT, async () => {
    expectError(await api('GET', '/steam/account'), 404, 'NOT_FOUND');
    expectError(await h.api('GET', '/steam/account', { token: h.viewerToken }), 403, 'FORBIDDEN');
    expectError(await h.api('PUT', '/steam/account', { token: h.viewerToken, body: owner }), 403, 'FORBIDDEN');
    // Without an account, a game whose server anonymous login cannot fetch is refused before any job.
    expectError(await api('POST', `/servers/${serverId}/install`), 409, 'STEAM_ACCOUNT_REQUIRED');
    const set = await setAccount(owner);
    assert.equal(set.username, owner.username);
    assert.equal(set.password_set, true);
    assert.equal(set.guard_code_pending, false);
    const got = (await api('GET', '/steam/account')).body.data;
    assert.deepEqual(Object.keys(got).sort(), ['guard_code_pending', 'password_set', 'updated_at', 'username']);
    everything.push(JSON.stringify(got), JSON.stringify(set));
    await withDatabase(h, async (knex) => {
      const row = await knex('steam_account').first();
      assert.ok(!JSON.stringify(row).includes(owner.password), 'sealed in the database');
    });
    expectError(await api('PUT', '/steam/account', { username: 'bad name', password: 'x' }), 400, 'VALIDATION_ERROR');
  });

  it(
    'refuses what it cannot install: an undeclared branch, a protected one without its password, a game without Steam',
    TIMEOUT,
    async () => {
      expectError(await api('POST', `/servers/${serverId}/install`, { branch: 'nightly' }), 400, 'VALIDATION_ERROR');
      expectError(await api('POST', `/servers/${serverId}/install`, { branch: 'profiling' }), 400, 'VALIDATION_ERROR');
      const bad = expectError(
        await api('POST', `/servers/${serverId}/install`, { branch: 'profiling', branch_password: '+quit' }),
        400,
        'VALIDATION_ERROR',
      );
      assert.ok(!bad.message.includes('+quit'));
      const third = await createServer(h, { game_type: 'gamec', exe_path: join(root, 'third', 'gamec_server') });
      expectError(await api('POST', `/servers/${third.id}/install`), 400, 'NOT_SUPPORTED');
      expectError(await api('GET', `/servers/${third.id}/install`), 400, 'NOT_SUPPORTED');
      expectError(await h.api('POST', `/servers/${serverId}/install`, { token: h.viewerToken }), 403, 'FORBIDDEN');
      const none = (await api('GET', `/servers/${serverId}/install`)).body.data;
      assert.deepEqual(none, { build_id: null, branch: null, installed_at: null, update_available: null });
    },
  );

  it('refuses, at the request, an installation folder SteamCMD could not be given as it is (400, no job)', TIMEOUT, async () => {
    // A single space inside a name is taken (Steam's own folders have them); two, or one at an end, are not.
    for (const [n, folder] of ['with "quote', 'semi;colon', 'line\nbreak', 'two  spaces', 'trailing '].entries()) {
      const bad = (await createServer(h, { name: `Bad ${n}`, exe_path: join(root, folder, 'gameaserver_x64.exe') })).id;
      const refused = expectError(await api('POST', `/servers/${bad}/install`), 400, 'VALIDATION_ERROR');
      assert.match(refused.message, /the installation folder .* may hold only letters/);
      assert.deepEqual(await withDatabase(h, (knex) => knex('background_jobs').where({ server_id: bad })), []);
    }
  });

  it('installs a protected branch with its password as a job: progress, log, the manifest read back', TIMEOUT, async () => {
    const id = await install({ branch: 'profiling', branch_password: BRANCH_PASSWORD });
    const queued = await job(id);
    assert.equal(queued.kind, 'steam.install');
    const done = await ended(id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.equal(done.progress, 1);
    assert.ok(
      done.log.some((l: string) => l.includes("Success! App '233780' fully installed")),
      done.log.join('\n'),
    );
    assert.ok(!done.log.some((l: string) => /Update state/.test(l)), 'progress redraws are the progress, not the log');
    everything.push(JSON.stringify(done));
    const state = (await api('GET', `/servers/${serverId}/install`)).body.data;
    assert.equal(state.build_id, '10001');
    assert.equal(state.branch, 'profiling');
    assert.ok(state.installed_at);
    assert.equal(state.update_available, false);
    const run = world.invocations().find((i) => i.argv.includes('+app_update'))!;
    assert.deepEqual(run.argv.slice(run.argv.indexOf('+force_install_dir'), run.argv.indexOf('+force_install_dir') + 2), [
      '+force_install_dir',
      join(root, 'server'),
    ]);
    assert.deepEqual(run.argv.slice(run.argv.indexOf('+app_update')), [
      '+app_update',
      APP,
      '-beta',
      'profiling',
      '-betapassword',
      '***',
      'validate',
      '+quit',
    ]);
    assert.deepEqual(run.argv.slice(run.argv.indexOf('+login'), run.argv.indexOf('+login') + 3), ['+login', owner.username, '***']);
    // A second install while one is queued or running is refused; so is a start.
    await writeFile(join(root, 'server', 'gameaserver_x64.exe'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    world.setDelay(300);
    const again = await install();
    expectError(await api('POST', `/servers/${serverId}/install`), 409, 'CONFLICT');
    expectError(await api('POST', `/servers/${serverId}/start`), 409, 'CONFLICT');
    world.setDelay(0);
    assert.equal((await ended(again)).status, 'done');
  });

  it('says an update is available once Steam has a newer build of the installed branch', TIMEOUT, async () => {
    const state = (await api('GET', `/servers/${serverId}/install`)).body.data;
    assert.deepEqual([state.build_id, state.branch, state.update_available], ['10000', 'public', false]);
    world.setBuild(APP, 'public', '10100');
    assert.equal((await api('GET', `/servers/${serverId}/install`)).body.data.update_available, false, 'the answer kept for some minutes');
    // Made old here, as time would.
    await withDatabase(h, (knex) => knex('steam_app_info').update({ checked_at: '2000-01-01T00:00:00.000Z' }));
    assert.equal((await api('GET', `/servers/${serverId}/install`)).body.data.update_available, true);
    const info = world.invocations().filter((i) => i.argv.includes('+app_info_print'));
    assert.ok(
      info.every((i) => i.argv.includes('anonymous')),
      "an app's info is asked anonymously: no login of the account spent",
    );
  });

  it('fails a login that needs a Steam Guard code, and takes the code given next, once', TIMEOUT, async () => {
    await setAccount({ username: guarded.username, password: guarded.password });
    const first = await ended(await install());
    assert.equal(first.status, 'failed');
    assert.equal(first.error.code, 'STEAM_GUARD_REQUIRED');
    everything.push(JSON.stringify(first));
    const pending = await setAccount({ username: guarded.username, password: guarded.password, guard_code: guarded.guard_code });
    assert.equal(pending.guard_code_pending, true);
    const retried = await ended(await install());
    assert.equal(retried.status, 'done', JSON.stringify(retried));
    everything.push(JSON.stringify(retried));
    assert.equal((await api('GET', '/steam/account')).body.data.guard_code_pending, false, 'used by that login, then cleared');
    const logins = world.invocations().filter((i) => i.argv.includes(guarded.username));
    assert.deepEqual(logins.at(-1)!.argv.slice(logins.at(-1)!.argv.indexOf('+login'), logins.at(-1)!.argv.indexOf('+login') + 4), [
      '+login',
      guarded.username,
      '***',
      '***',
    ]);
  });

  it('names a wrong password STEAM_LOGIN_FAILED and a full disk STEAM_DISK_FULL', TIMEOUT, async () => {
    await setAccount({ username: owner.username, password: 'Wrong-Password-9' });
    const refused = await ended(await install());
    assert.equal(refused.error.code, 'STEAM_LOGIN_FAILED');
    everything.push(JSON.stringify(refused));
    await setAccount(owner);
    world.setFault({ kind: 'app_state', app: APP, state: APP_UPDATE_STATES.diskFull, times: 1 });
    const full = await ended(await install());
    assert.equal(full.error.code, 'STEAM_DISK_FULL', JSON.stringify(full));
    everything.push(JSON.stringify(full));
  });

  it('refuses to start a server whose last install did not complete, naming the job, until an install succeeds', TIMEOUT, async () => {
    // The full disk above left a half-written server: a start would run a broken binary.
    const failedJob = (await api('GET', '/audit?event_type=job_failed&limit=1')).body.data.entries[0].detail;
    assert.equal(failedJob.error_code, 'STEAM_DISK_FULL');
    const refused = expectError(await api('POST', `/servers/${serverId}/start`), 409, 'INSTALL_INCOMPLETE');
    assert.match(refused.message, new RegExp(`install job ${failedJob.job_id} failed \\(STEAM_DISK_FULL\\)`));
    expectError(await api('POST', `/servers/${serverId}/restart`), 409, 'SERVER_NOT_RUNNING');
    // A login refused writes nothing into the installation: it stays as the last install left it.
    await setAccount({ username: owner.username, password: 'Wrong-Password-9' });
    assert.equal((await ended(await install())).error.code, 'STEAM_LOGIN_FAILED');
    const still = expectError(await api('POST', `/servers/${serverId}/start`), 409, 'INSTALL_INCOMPLETE');
    assert.match(still.message, new RegExp(`install job ${failedJob.job_id} failed`), 'the job that left it so');
    await setAccount(owner);
    assert.equal((await ended(await install())).status, 'done');
    await withDatabase(h, async (knex) => assert.deepEqual(await knex('steam_installations').select('job_id'), [], 'complete again'));
    const started = await api('POST', `/servers/${serverId}/start`);
    assert.notEqual(started.body.error?.code, 'INSTALL_INCOMPLETE', JSON.stringify(started.body));
    if (started.status === 200) assert.equal((await api('POST', `/servers/${serverId}/kill`)).status < 500, true);
  });

  it(
    'installs a shared installation only with every server of it stopped, and starts none of them during the install',
    TIMEOUT,
    async () => {
      const sharer = await createServer(h, { exe_path: join(root, 'server', 'gameaserver_x64.exe') });
      await setStatus(h, sharer.id, 'running');
      const busy = expectError(await api('POST', `/servers/${serverId}/install`), 409, 'SERVER_NOT_STOPPED');
      assert.match(busy.message, new RegExp(`server ${sharer.id} .* runs from this installation too and is running`));
      await setStatus(h, sharer.id, 'stopped');
      world.setDelay(300);
      const id = await install();
      const refused = expectError(await api('POST', `/servers/${sharer.id}/start`), 409, 'CONFLICT');
      assert.match(refused.message, new RegExp(`\\(job ${id}\\)`));
      expectError(await api('POST', `/servers/${sharer.id}/install`), 409, 'CONFLICT');
      world.setDelay(0);
      assert.equal((await ended(id)).status, 'done');

      // Queued while all were stopped, a sharer started since (as an adopted process does, without asking): the job re-checks.
      const elsewhere = await createServer(h, { exe_path: join(root, 'elsewhere', 'gameaserver_x64.exe') });
      world.setDelay(300);
      const ahead = (await api('POST', `/servers/${elsewhere.id}/install`)).body.data.job_id as number;
      await waitFor(async () => (await job(ahead)).status === 'running', { timeoutMs: 20_000, what: 'the install ahead running' });
      const behind = await install();
      await setStatus(h, sharer.id, 'running');
      world.setDelay(0);
      const failed = await ended(behind);
      assert.equal(failed.error?.code, 'SERVER_NOT_STOPPED', JSON.stringify(failed));
      assert.match(failed.error.message, new RegExp(`server ${sharer.id} .* runs from this installation too`));
      assert.equal((await ended(ahead)).status, 'done');
      await setStatus(h, sharer.id, 'stopped');
    },
  );

  it('lets no password out: not in job logs, errors, the audit trail, the account or the runs', TIMEOUT, async () => {
    const audit = await api('GET', '/audit?limit=500');
    assert.equal(audit.status, 200);
    everything.push(JSON.stringify(audit.body), JSON.stringify((await api('GET', '/steam/account')).body));
    const entry = (audit.body.data.entries as Record<string, any>[]).find((e) => e.event_type === 'steam_account_set')!;
    assert.equal(entry.detail.username, owner.username);
    everything.push(JSON.stringify(world.invocations()));
    const text = everything.join('\n');
    for (const secret of [owner.password, guarded.password, guarded.guard_code, BRANCH_PASSWORD, 'Wrong-Password-9'])
      assert.ok(!text.includes(secret), `a secret leaked: ${secret.slice(0, 2)}…`);
  });

  it('forgets the account on DELETE, audited', TIMEOUT, async () => {
    assert.equal((await api('DELETE', '/steam/account')).status, 200);
    expectError(await api('GET', '/steam/account'), 404, 'NOT_FOUND');
    expectError(await api('DELETE', '/steam/account'), 404, 'NOT_FOUND');
    const latest = (await api('GET', '/audit?event_type=steam_account_removed&limit=1')).body.data.entries[0];
    assert.equal(latest.target_name, owner.username);
  });

  it('installs into a folder whose name has spaces, as Steam names its own (quoted in the runscript)', TIMEOUT, async () => {
    await setAccount(owner);
    const spaced = (await createServer(h, { name: 'Spaced', exe_path: join(root, 'Game Server 2', 'gameaserver_x64.exe') })).id;
    const res = await api('POST', `/servers/${spaced}/install`);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const done = await ended(res.body.data.job_id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.equal((await api('GET', `/servers/${spaced}/install`)).body.data.branch, 'public');
  });
});

describe("reading a server's install with Steam's answer failing", () => {
  let h: Harness;
  let root: string;
  after(async () => {
    prepareWorld();
    await h?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('runs SteamCMD once for many reads, at once or in a row, and not again until the failure is a few minutes old', TIMEOUT, async () => {
    prepareWorld();
    world.edit((s) => void delete s.apps[APP]); // `+app_info_print` then says nothing of the app: a failed ask
    root = await mkdtemp(join(tmpdir(), 'garrison-steam-reads-'));
    const { executables } = await installFakeSteamcmd(join(root, 'bin'));
    const clock = new FakeClock(new Date('2040-01-01T00:00:00Z'));
    h = await startHarness({ clock, steamcmdPath: executables[0], steamDir: join(root, 'steam') });
    const serverId = (await createServer(h, { exe_path: join(root, 'server', 'gameaserver_x64.exe') })).id;
    await mkdir(join(root, 'server', 'steamapps'), { recursive: true });
    const manifest = `"AppState"\n{\n\t"appid"\t\t"${APP}"\n\t"buildid"\t\t"10000"\n\t"LastUpdated"\t\t"1700000000"\n}\n`;
    await writeFile(join(root, 'server', 'steamapps', `appmanifest_${APP}.acf`), manifest);
    const asks = () => world.invocations().filter((i) => i.argv.includes('+app_info_print')).length;
    const before = asks();
    const read = async () => {
      const res = await h.api('GET', `/servers/${serverId}/install`, { token: h.viewerToken });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual([res.body.data.build_id, res.body.data.update_available], ['10000', null]);
    };
    await Promise.all([read(), read(), read(), read()]);
    for (let i = 0; i < 5; i += 1) await read();
    assert.equal(asks() - before, 1, 'one run of SteamCMD for nine reads');
    await clock.advance(60_000);
    await read();
    assert.equal(asks() - before, 1, 'a failure is kept a few minutes');
    await clock.advance(2 * 60_000);
    await read();
    assert.equal(asks() - before, 2, 'then asked again');
  });
});

describe('an install cut short by a restart of the service', () => {
  const harnesses: Harness[] = [];
  let root: string;
  after(async () => {
    world.setDelay(0);
    for (const h of harnesses.reverse()) await h.close();
    await rm(root, { recursive: true, force: true });
  });

  it('ends failed JOB_INTERRUPTED, never running for ever', TIMEOUT, async () => {
    prepareWorld();
    root = await mkdtemp(join(tmpdir(), 'garrison-steam-restart-'));
    const { executables } = await installFakeSteamcmd(join(root, 'bin'));
    const options = { steamcmdPath: executables[0], steamDir: join(root, 'steam') };
    const first = await startHarness(options);
    harnesses.push(first);
    const serverId = (await createServer(first, { exe_path: join(root, 'server', 'gameaserver_x64.exe') })).id;
    assert.equal((await first.api('PUT', '/steam/account', { token: first.adminToken, body: owner })).status, 200);
    world.setDelay(1_000);
    const res = await first.api('POST', `/servers/${serverId}/install`, { token: first.adminToken });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const id = res.body.data.job_id as number;
    const runs = world.invocations().length;
    await waitFor(
      async () => {
        const job = (await first.api('GET', `/jobs/${id}`, { token: first.adminToken })).body.data;
        return job.status === 'running' && job.progress > 0;
      },
      { timeoutMs: 20_000, what: 'the install under way' },
    );
    await first.server.close(); // what SIGTERM does
    const second = await startHarness({ ...options, dataDir: first.dataDir, databaseUrl: first.databaseUrl });
    harnesses.push(second);
    const job = (await second.api('GET', `/jobs/${id}`, { token: second.adminToken })).body.data;
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'JOB_INTERRUPTED');
    // Cut short while SteamCMD wrote into it: no start runs what it left (its executable there or not).
    await writeFile(join(root, 'server', 'gameaserver_x64.exe'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const refused = await second.api('POST', `/servers/${serverId}/start`, { token: second.adminToken });
    assert.equal(refused.body.error?.code, 'INSTALL_INCOMPLETE', JSON.stringify(refused.body));
    // The run was stopped with the service: it ended by a signal, not by installing.
    const run = await waitFor(() => world.invocations()[runs], { timeoutMs: 10_000, what: "the stopped run's record" });
    assert.notEqual(run.exit_code, 0);
  });
});
