import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freeGamePorts, installFakeGameaTemp, waitFor } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import { endpoints, type EndpointId } from '@garrison/core';
import { GarrisonApiError, GarrisonClient } from '@garrison/sdk';
import { Secret, TOTP } from 'otpauth';

const GUID = 'b'.repeat(32);

// Every endpoint of the contract, through the SDK, against a real service and a real game process:
// an endpoint without a working SDK method fails here.
describe('the SDK on every endpoint', () => {
  let g: TestGarrison;
  let fake: Awaited<ReturnType<typeof installFakeGameaTemp>>;
  const called = new Set<EndpointId>();
  let client: GarrisonClient;
  before(async () => {
    fake = await installFakeGameaTemp();
    g = await startGarrison({ stopTimeoutMs: 3000, playersPollMs: 200, webhookAllowPrivate: true });
    client = tracked(new GarrisonClient({ baseUrl: g.url }));
    await client.login('admin', g.adminPassword);
  });
  /** The client, with every endpoint it calls noted. */
  const tracked = (c: GarrisonClient) => {
    const call = c.call;
    c.call = ((id: EndpointId, ...rest: unknown[]) => {
      called.add(id);
      return (call as (...a: unknown[]) => Promise<unknown>)(id, ...rest);
    }) as typeof c.call;
    return c;
  };
  after(async () => {
    await client.servers.list().then((all) => Promise.all(all.filter((s) => s.pid).map((s) => client.servers.kill(s.id).catch(() => {}))));
    await g.close();
    await fake.remove();
  });

  it('calls each one and gets what the contract says', { timeout: 120_000 }, async () => {
    // System, games, users.
    assert.equal((await client.system.health()).status, 'ok');
    assert.equal(typeof (await client.system.status()).total_servers, 'number');
    const [node] = await client.nodes.list();
    assert.equal(node.online, true);
    assert.equal((await client.nodes.update(node.id, { draining: false })).draining, false);
    assert.deepEqual(await client.system.integrations(), { metrics: { enabled: false, path: '/metrics', address: null } });
    const made = await client.keys.create({ name: 'sdk bot', scopes: ['servers:read'] });
    const bot = tracked(new GarrisonClient({ baseUrl: g.url, token: made.key }));
    assert.ok(Array.isArray(await bot.servers.list()), 'a key works as the token');
    assert.equal((await client.keys.list({ all: true })).length, 1);
    await client.keys.revoke(made.id);
    const trail = await client.audit.list({ event_type: 'api_key_revoked' });
    assert.equal(trail.entries[0]?.target_id, String(made.id));
    const lines = (await new Response(await client.audit.export({ target_kind: 'api_key' })).text()).trim().split('\n');
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { event_type: string }).event_type),
      ['api_key_created', 'api_key_revoked'],
    );
    await assert.rejects(bot.servers.list(), (err: GarrisonApiError) => err.status === 401);

    // Webhooks, to a receiver of the test's own.
    const receiver = createServer((req, res) => void req.resume().on('end', () => res.end('ok')));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    try {
      const hook = await client.webhooks.create({
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        kind: 'generic',
        events: ['server.crashed'],
      });
      assert.match(hook.secret, /^whsec_/);
      assert.equal((await client.webhooks.list()).length, 1);
      assert.equal((await client.webhooks.get(hook.id)).kind, 'generic');
      assert.deepEqual((await client.webhooks.update(hook.id, { events: ['server.started'] })).events, ['server.started']);
      assert.match((await client.webhooks.rotateSecret(hook.id)).secret, /^whsec_/);
      const test = await client.webhooks.test(hook.id);
      const delivered = await waitFor(async () => (await client.webhooks.deliveries(hook.id)).items.find((d) => d.status === 'delivered'), {
        what: 'the test delivered',
      });
      assert.equal(delivered.id, test.id);
      assert.equal((await client.webhooks.redeliver(hook.id, test.id)).status, 'pending');
      await client.webhooks.delete(hook.id);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
    assert.ok((await client.games.list()).length >= 1);
    assert.equal((await client.games.get('gamea')).game_type, 'gamea');
    assert.ok((await client.games.configSchema('gamea')).server);
    assert.ok((await client.games.defaults('gamea')).server);
    assert.ok((await client.games.commands('gamea')).includes('#shutdown'));
    assert.equal((await client.auth.me()).username, 'admin');
    const user = await client.users.create({ username: 'sdk_viewer', password: 'viewer-password-1' });
    assert.ok((await client.users.list()).some((u) => u.id === user.id));
    const viewer = tracked(new GarrisonClient({ baseUrl: g.url }));
    await viewer.login('sdk_viewer', 'viewer-password-1');
    assert.equal(typeof (await viewer.auth.changePassword('viewer-password-1', 'viewer-password-2')).message, 'string');
    // Two-factor sign-in, with codes as an authenticator app makes them.
    const setup = await viewer.auth.twoFactor.setup();
    const code = (at: number) =>
      TOTP.generate({ secret: Secret.fromBase32(setup.secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });
    const { recovery_codes } = await viewer.auth.twoFactor.enable(code(Date.now()));
    assert.equal((await viewer.auth.twoFactor.status()).enabled, true);
    const second = tracked(new GarrisonClient({ baseUrl: g.url }));
    const challenge = await second.login('sdk_viewer', 'viewer-password-2');
    assert.ok('mfa_token' in challenge);
    await second.loginSecondStep(challenge.mfa_token, recovery_codes[0]);
    assert.equal((await second.auth.me()).username, 'sdk_viewer');
    await second.auth.endSession((await second.auth.sessions()).find((s) => s.current)!.id);
    assert.equal((await viewer.auth.twoFactor.disable('viewer-password-2', recovery_codes[1])).message.length > 0, true);
    const [current] = await viewer.auth.sessions();
    assert.equal(current.current, true);
    const elsewhere = tracked(new GarrisonClient({ baseUrl: g.url }));
    await elsewhere.login('sdk_viewer', 'viewer-password-2');
    await viewer.auth.endSession((await viewer.auth.sessions()).find((s) => !s.current)!.id);
    await assert.rejects(elsewhere.auth.me(), (err: GarrisonApiError) => err.status === 401);
    assert.equal(typeof (await viewer.auth.logout()).message, 'string');
    await viewer.auth.endAllSessions();
    await assert.rejects(viewer.auth.me(), (err: GarrisonApiError) => err.status === 401);
    assert.equal((await client.users.update(user.id, { role: 'admin' })).role, 'admin');
    await client.users.delete(user.id);

    // A server, its config, files and mods.
    await mkdir(join(fake.dir, '@ace'), { recursive: true });
    const s = await client.servers.create({ name: 'Every', exe_path: fake.exePath, ...(await freeGamePorts()) });
    assert.ok((await client.servers.list()).some((x) => x.id === s.id));
    assert.equal((await client.servers.update(s.id, { name: 'Every endpoint' })).name, 'Every endpoint');
    assert.ok((await client.config.get(s.id)).server);
    assert.ok((await client.config.schema(s.id)).server);
    const section = await client.config.section(s.id, 'server');
    await client.config.update(s.id, 'server', { hostname: 'Everything' }, section._meta.config_version);
    assert.match((await client.config.preview(s.id))['server.cfg'], /Everything/);
    assert.match(await client.config.download(s.id, 'server.cfg'), /Everything/);
    assert.ok((await client.mods.list(s.id)).mods.some((m) => m.name === '@ace'));
    assert.equal((await client.mods.setEnabled(s.id, { mods: [{ name: '@ace', is_server_mod: false }] })).enabled_mods.length, 1);
    // Workshop items: none installed (the download job installs them), none to remove; a check asks Steam for nothing.
    assert.deepEqual(await client.workshop.list(s.id), []);
    await assert.rejects(client.workshop.remove(s.id, '1'), (err: GarrisonApiError) => err.code === 'WORKSHOP_ITEM_NOT_FOUND');
    assert.deepEqual(await client.workshop.check(s.id), { checked: 0, newly_outdated: [], items: [] });
    // Nothing outdated: no job (200, an empty list); an add refused before Steam or SteamCMD is asked (a bad id).
    assert.deepEqual(await client.workshop.update(s.id), []);
    await assert.rejects(client.workshop.add(s.id, { items: ['+quit'] }), (err: GarrisonApiError) => err.code === 'VALIDATION_ERROR');
    const exported = await client.mods.exportPreset(s.id);
    assert.match(exported, /arma:Type/);
    const diff = await client.mods.importPreset(s.id, exported, { apply: true });
    assert.deepEqual([diff.matched.map((m) => m.folder), diff.applied], [['@ace'], true]);
    const plan = await client.servers.import({
      exe_path: fake.exePath,
      command_line: `-port=${(await freeGamePorts()).game_port}`,
      dry_run: true,
    });
    assert.equal(plan.dry_run, true);
    const nightly = await client.schedules.create(s.id, {
      name: 'Nightly',
      cron: '0 4 * * *',
      timezone: 'Europe/Berlin',
      template: { kind: 'restart_with_warnings' },
    });
    assert.equal(nightly.next_runs.length, 5);
    assert.ok((await client.schedules.list(s.id)).some((x) => x.id === nightly.id));
    assert.equal((await client.schedules.update(s.id, nightly.id, { enabled: false })).enabled, false);
    assert.equal((await client.schedules.get(s.id, nightly.id)).name, 'Nightly');
    const { run_id } = await client.schedules.run(s.id, nightly.id);
    assert.ok((await client.schedules.runs(s.id, nightly.id)).items.some((r) => r.id === run_id));
    assert.equal(typeof (await client.schedules.delete(s.id, nightly.id)).message, 'string');
    const started = await client.backups.create(s.id, { note: 'every endpoint' });
    const backup = await waitFor(
      async () => {
        const b = await client.backups.get(s.id, started.id);
        return b.status !== 'running' && b;
      },
      { timeoutMs: 20_000, what: 'the backup' },
    );
    assert.equal(backup.status, 'done');
    assert.ok((await client.backups.list(s.id)).some((b) => b.id === backup.id));
    assert.equal((await client.backups.download(s.id, backup.id)).size, backup.size_bytes);
    assert.equal((await client.backups.update(s.id, backup.id, { note: 'kept' })).note, 'kept');
    assert.equal(typeof (await client.backups.restore(s.id, backup.id)).message, 'string');
    assert.equal(typeof (await client.backups.delete(s.id, backup.id)).message, 'string');

    // Background jobs: no endpoint of the service queues one yet (features do, SteamCMD's first), so an unknown id.
    await assert.rejects(client.jobs.get(2_000_000), (err: GarrisonApiError) => err.status === 404 && err.code === 'NOT_FOUND');
    await assert.rejects(client.jobs.cancel(2_000_000), (err: GarrisonApiError) => err.status === 404 && err.code === 'NOT_FOUND');

    // SteamCMD: the account, and an install refused before any job (an undeclared branch), so that nothing runs here.
    await assert.rejects(client.steam.account(), (err: GarrisonApiError) => err.status === 404 && err.code === 'NOT_FOUND');
    assert.equal((await client.steam.setAccount({ username: 'sdk_bot', password: 'Sdk-Pass-1' })).password_set, true);
    assert.equal((await client.steam.account()).username, 'sdk_bot');
    await assert.rejects(
      client.steam.install(s.id, { branch: 'no-such-branch' }),
      (err: GarrisonApiError) => err.status === 400 && err.code === 'VALIDATION_ERROR',
    );
    assert.equal((await client.steam.installState(s.id)).build_id, null);
    assert.equal(typeof (await client.steam.deleteAccount()).message, 'string');

    await client.missions.upload(s.id, new Blob(['m']), 'co10_Every.Altis.pbo');
    const form = new FormData();
    form.append('file', new Blob(['n']), 'co10_Alias.Altis.pbo');
    assert.equal((await client.call('uploadMissionAlias', { params: { server_id: s.id }, body: form })).filename, 'co10_Alias.Altis.pbo');
    assert.equal((await client.missions.list(s.id)).missions.length, 2);
    const rotation = await client.missions.rotation(s.id);
    await client.missions.setRotation(s.id, [{ name: 'co10_Every.Altis', difficulty: 'Veteran' }], rotation.config_version);
    await client.missions.delete(s.id, 'co10_Alias.Altis.pbo');

    // Running: remote admin, players, bans, logs, metrics, the lifecycle.
    const { pid } = await client.servers.start(s.id);
    assert.ok(pid > 0);
    await waitFor(async () => (await client.servers.get(s.id)).status === 'running', { timeoutMs: 30_000, what: 'running' });
    await client.rcon.command(s.id, `testkit.join Dave ${GUID} 10.0.0.9`);
    assert.match(await client.rcon.command(s.id, 'players').then((r) => r.response), /Dave/);
    assert.equal(typeof (await client.rcon.say(s.id, 'hello')).message, 'string');
    assert.deepEqual(await client.missions.play(s.id, 'co10_Every.Altis', 'regular'), {
      message: 'playing co10_Every.Altis (Regular)',
      name: 'co10_Every.Altis',
      difficulty: 'Regular',
    });
    const players = await waitFor(
      async () => {
        const list = await client.players.list(s.id);
        return list.players.some((p) => p.name === 'Dave') && list;
      },
      { timeoutMs: 20_000, what: 'Dave in the player list' },
    );
    const dave = players.players.find((p) => p.name === 'Dave')!;
    assert.ok((await client.players.history(s.id)).items.some((r) => r.player_name === 'Dave'));
    await client.players.ban(s.id, dave.slot_id, { reason: 'testing', duration_minutes: 5 });
    await client.rcon.command(s.id, `testkit.join Erin ${'c'.repeat(32)} 10.0.0.10`);
    const erin = await waitFor(async () => (await client.players.list(s.id)).players.find((p) => p.name === 'Erin'), {
      timeoutMs: 20_000,
      what: 'Erin',
    });
    assert.equal(typeof (await client.players.kick(s.id, erin.slot_id, 'afk')).message, 'string');
    const ban = await client.bans.create(s.id, { player_uid: 'd'.repeat(32), ban_type: 'GUID', reason: 'spam', duration_minutes: 0 });
    assert.ok((await client.bans.list(s.id)).some((b) => b.id === ban.id));
    await client.bans.revoke(s.id, ban.id);
    await waitFor(async () => (await client.logs.list(s.id)).total > 0, { timeoutMs: 20_000, what: 'log lines' });
    const files = await client.logs.files(s.id);
    assert.ok(files.length > 0);
    assert.equal(typeof (await client.logs.download(s.id, files[0].filename)), 'string');
    const logDir = join(fake.dir, 'server');
    await writeFile(join(logDir, 'old_2020.rpt'), 'an old log');
    await client.logs.deleteFile(s.id, 'old_2020.rpt');
    await client.logs.clear(s.id);
    assert.ok(Array.isArray(await client.metrics.get(s.id)));
    assert.ok((await client.servers.events(s.id)).events.some((e) => e.event_type === 'start'));
    const processes = await client.servers.processes(s.id);
    assert.deepEqual(
      processes.map((p) => [p.role, p.index, p.pid, p.status]),
      [['server', 0, pid, 'running']],
    );
    const restarted = await client.servers.restart(s.id);
    assert.notEqual(restarted.pid, pid);
    await waitFor(async () => (await client.servers.get(s.id)).status === 'running', { timeoutMs: 30_000, what: 'running again' });
    assert.equal((await client.servers.stop(s.id, { force: true })).status, 'stopped');
    await client.servers.start(s.id);
    await client.servers.kill(s.id);
    const gone = await client.servers.kill(s.id).catch((e: unknown) => e);
    assert.ok(gone instanceof GarrisonApiError && gone.code === 'SERVER_NOT_RUNNING');
    await client.servers.delete(s.id);

    const missing = Object.keys(endpoints).filter((id) => !called.has(id as EndpointId));
    assert.deepEqual(missing, [], 'every endpoint was called through the SDK');
  });
});
