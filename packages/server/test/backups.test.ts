import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { waitFor } from '@garrison/testkit';
import { FakeClock } from '@garrison/server';
import { expectError, onMysql, startHarness, withDatabase, type Harness } from './helpers.js';
import { FAST_SUPERVISION, createGameServer, gameService, killGames, statusBecomes, type FakeInstall } from './games.js';

const VARS = join('server', 'Users', 'server', 'server.vars.GameaProfile');

/** Waits for a backup to finish and answers it. */
const finished = (h: Harness, serverId: number, id: number) =>
  waitFor(
    async () => {
      const b = (await h.api('GET', `/servers/${serverId}/backups/${id}`, { token: h.adminToken })).body.data;
      return b.status !== 'running' && b;
    },
    { what: `backup ${id} to finish` },
  );

const entriesOf = async (archive: Buffer) => {
  const names: string[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'garrison-archive-'));
  await writeFile(join(dir, 'a.tar.gz'), archive);
  await tar.t({ file: join(dir, 'a.tar.gz'), onReadEntry: (e) => void names.push(e.path) });
  await rm(dir, { recursive: true, force: true });
  return names;
};

describe('backups of a server', () => {
  const suite = gameService(FAST_SUPERVISION, async (fake) => {
    await mkdir(join(fake.dir, 'server', 'Users', 'server'), { recursive: true });
    await writeFile(join(fake.dir, VARS), 'persistence: 42 vehicles');
    await writeFile(join(fake.dir, 'server', 'crash.mdmp'), 'dump');
  });
  const h = () => suite.h;

  const started = async () => {
    const s = await createGameServer(h(), suite.fake);
    // A start writes the generated files, which a backup holds; then the server is stopped again.
    assert.equal((await h().api('POST', `/servers/${s.id}/start`, { token: h().adminToken })).status, 200);
    await statusBecomes(h(), s.id, 'running');
    await h().api('POST', `/servers/${s.id}/bans`, {
      token: h().adminToken,
      body: { player_uid: 'a'.repeat(32), ban_type: 'GUID', reason: 'cheating', duration_minutes: 0 },
    });
    assert.equal((await h().api('POST', `/servers/${s.id}/stop`, { token: h().adminToken })).status, 200);
    return s;
  };

  it('writes the state as a streamed tar.gz with its checksum and manifest, and restores it over later changes', async () => {
    const s = await started();
    await writeFile(join(suite.fake.dir, 'server', 'Users', 'server', 'cache.bigfile'), 'a cache nobody needs back');
    const excluded = await h().api('PUT', `/servers/${s.id}`, { token: h().adminToken, body: { backup_exclude: ['*.bigfile'] } });
    assert.deepEqual(excluded.body.data.backup_exclude, ['*.bigfile']);
    expectError(
      await h().api('PUT', `/servers/${s.id}`, { token: h().adminToken, body: { backup_exclude: ['../etc'] } }),
      400,
      'VALIDATION_ERROR',
    );
    const res = await h().api('POST', `/servers/${s.id}/backups`, { token: h().adminToken, body: { note: 'before the update' } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.data.status, 'running');
    const backup = await finished(h(), s.id, res.body.data.id);
    assert.equal(backup.status, 'done', JSON.stringify(backup));
    assert.equal(backup.kind, 'manual');
    assert.match(backup.sha256, /^[0-9a-f]{64}$/);
    assert.equal(backup.manifest.server.name, s.name);
    assert.equal(backup.manifest.server_running, false);
    assert.equal(backup.manifest.config_sections.server.password_admin, '***', 'secrets masked in what the API shows');

    const download = await fetch(`${h().url}/api/servers/${s.id}/backups/${backup.id}/download`, {
      headers: { authorization: `Bearer ${h().adminToken}` },
    });
    assert.equal(download.headers.get('content-type'), 'application/gzip');
    const bytes = Buffer.from(await download.arrayBuffer());
    assert.equal(bytes.length, backup.size_bytes);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), backup.sha256);
    const names = await entriesOf(bytes);
    for (const name of [
      'manifest.json',
      'profile/Users/server/server.vars.GameaProfile',
      'config/server.cfg',
      'config/basic.cfg',
      'config/battleye/bans.txt',
    ])
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    assert.ok(!names.some((n) => n.endsWith('.rpt') || n.endsWith('.mdmp')), 'no logs, no dumps');
    assert.ok(!names.some((n) => n.endsWith('.bigfile')), "the server's own exclusions");
    assert.ok(!names.some((n) => n.startsWith('missions/')), 'missions only when asked');
    expectError(await h().api('GET', `/servers/${s.id}/backups/${backup.id}/download`, { token: h().viewerToken }), 403, 'FORBIDDEN');

    // Later changes: the hostname, the persistence file, a ban.
    const section = (await h().api('GET', `/servers/${s.id}/config/server`, { token: h().adminToken })).body.data;
    await h().api('PUT', `/servers/${s.id}/config/server`, {
      token: h().adminToken,
      body: { hostname: 'Changed after', config_version: section._meta.config_version },
    });
    await writeFile(join(suite.fake.dir, VARS), 'persistence: lost everything');
    const log = join(suite.fake.dir, 'server', 'today.rpt');
    await writeFile(log, 'a log written after the backup');

    await h().api('POST', `/servers/${s.id}/start`, { token: h().adminToken });
    expectError(
      await h().api('POST', `/servers/${s.id}/backups/${backup.id}/restore`, { token: h().adminToken }),
      409,
      'SERVER_NOT_STOPPED',
    );
    await statusBecomes(h(), s.id, 'running');
    await h().api('POST', `/servers/${s.id}/stop`, { token: h().adminToken });

    const restored = await h().api('POST', `/servers/${s.id}/backups/${backup.id}/restore`, { token: h().adminToken });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(await readFile(join(suite.fake.dir, VARS), 'utf8'), 'persistence: 42 vehicles');
    assert.equal(await readFile(log, 'utf8'), 'a log written after the backup', 'what a backup does not hold is left alone');
    const after = (await h().api('GET', `/servers/${s.id}/config/server`, { token: h().adminToken })).body.data;
    assert.equal(after.hostname, section.hostname);
    assert.equal(after._meta.config_version, section._meta.config_version + 2, 'a new version');
  });

  it('refuses a damaged archive and one with a link out of its folder, changing nothing', async () => {
    const s = await started();
    const backup = await finished(h(), s.id, (await h().api('POST', `/servers/${s.id}/backups`, { token: h().adminToken })).body.data.id);
    const dir = join(h().dataDir, 'backups', String(s.id));
    const [file] = (await readdir(dir)).filter((n) => n.endsWith('.tar.gz'));
    const archive = await readFile(join(dir, file));
    await writeFile(join(suite.fake.dir, VARS), 'persistence: now');
    const damaged = Buffer.from(archive);
    damaged[Math.floor(damaged.length / 2)] ^= 0xff;
    await writeFile(join(dir, file), damaged);
    assert.match(
      expectError(
        await h().api('POST', `/servers/${s.id}/backups/${backup.id}/restore`, { token: h().adminToken }),
        400,
        'VALIDATION_ERROR',
      ).message,
      /damaged/,
    );

    // An archive made by hand: a link in the profile that points out of it.
    const work = await mkdtemp(join(tmpdir(), 'garrison-evil-'));
    await mkdir(join(work, 'profile'));
    await writeFile(join(work, 'manifest.json'), JSON.stringify({ config_sections: {}, parts: [{ name: 'profile', path: '/x' }] }));
    await symlink('../../../../etc', join(work, 'profile', 'Users'));
    await tar.c({ gzip: true, cwd: work, file: join(dir, file) }, ['manifest.json', 'profile']);
    const sum = createHash('sha256')
      .update(await readFile(join(dir, file)))
      .digest('hex');
    await withDatabase(h(), (knex) => knex('backups').where({ id: backup.id }).update({ sha256: sum }));
    assert.match(
      expectError(
        await h().api('POST', `/servers/${s.id}/backups/${backup.id}/restore`, { token: h().adminToken }),
        400,
        'VALIDATION_ERROR',
      ).message,
      /links that point out of profile/,
    );
    assert.equal(await readFile(join(suite.fake.dir, VARS), 'utf8'), 'persistence: now', 'nothing changed');
    await rm(work, { recursive: true, force: true });
  });

  it('locks, notes, deletes, keeps backup_keep automatic ones, and keeps them per server', async () => {
    const s = await started();
    const update = await h().api('PUT', `/servers/${s.id}`, { token: h().adminToken, body: { backup_keep: 2 } });
    assert.equal(update.body.data.backup_keep, 2);
    const schedule = (
      await h().api('POST', `/servers/${s.id}/schedules`, {
        token: h().adminToken,
        body: { name: 'Backups', cron: '0 0 1 1 *', steps: [{ at_s: 0, action: 'backup' }] },
      })
    ).body.data;
    const manual = await finished(h(), s.id, (await h().api('POST', `/servers/${s.id}/backups`, { token: h().adminToken })).body.data.id);
    const automatic: number[] = [];
    for (let i = 0; i < 4; i++) {
      const runId = (await h().api('POST', `/servers/${s.id}/schedules/${schedule.id}/run`, { token: h().adminToken })).body.data.run_id;
      const run = await waitFor(
        async () => {
          const r = (
            await h().api('GET', `/servers/${s.id}/schedules/${schedule.id}/runs`, { token: h().adminToken })
          ).body.data.items.find((x: { id: number }) => x.id === runId);
          return r.status !== 'running' && r;
        },
        { what: 'the backup run' },
      );
      assert.equal(run.status, 'succeeded', JSON.stringify(run));
      const list = (await h().api('GET', `/servers/${s.id}/backups`, { token: h().viewerToken })).body.data;
      automatic.push(list.find((b: { kind: string }) => b.kind === 'automatic').id);
      if (i === 0)
        assert.equal(
          (
            await h().api('PUT', `/servers/${s.id}/backups/${automatic[0]}`, {
              token: h().adminToken,
              body: { locked: true, note: 'keep forever' },
            })
          ).body.data.locked,
          true,
        );
    }
    const kept = (await h().api('GET', `/servers/${s.id}/backups`, { token: h().viewerToken })).body.data.map((b: { id: number }) => b.id);
    assert.deepEqual(
      kept.sort(),
      [manual.id, automatic[0], automatic[2], automatic[3]].sort(),
      'the newest two automatic, the locked one and the manual one',
    );
    const files = (await readdir(join(h().dataDir, 'backups', String(s.id)))).filter((n) => n.endsWith('.tar.gz'));
    assert.equal(files.length, 4, 'pruned archives are gone from the disk');

    expectError(await h().api('DELETE', `/servers/${s.id}/backups/${automatic[0]}`, { token: h().adminToken }), 409, 'CONFLICT');
    await h().api('PUT', `/servers/${s.id}/backups/${automatic[0]}`, { token: h().adminToken, body: { locked: false } });
    assert.equal((await h().api('DELETE', `/servers/${s.id}/backups/${automatic[0]}`, { token: h().adminToken })).status, 200);
    const other = await createGameServer(h(), suite.fake);
    expectError(await h().api('GET', `/servers/${other.id}/backups/${manual.id}`, { token: h().viewerToken }), 404, 'NOT_FOUND');
    expectError(await h().api('POST', `/servers/${other.id}/backups/${manual.id}/restore`, { token: h().adminToken }), 404, 'NOT_FOUND');
  });
});

describe('a backup on a full disk', () => {
  let h: Harness;
  let fake: FakeInstall;
  let mount: string;
  before(async () => {
    mount = await mkdtemp(join(tmpdir(), 'garrison-full-'));
    // A small folder of its own: the backup fills it. Needs root (CI runs as root).
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mount]);
    const { installFakeGameaTemp } = await import('@garrison/testkit');
    fake = await installFakeGameaTemp();
    await mkdir(join(fake.dir, 'server', 'Users', 'server'), { recursive: true });
    await writeFile(join(fake.dir, 'server', 'Users', 'server', 'big.vars'), randomBytes(1024 * 1024)); // does not compress
    h = await startHarness({ ...FAST_SUPERVISION, backupDir: mount });
  });
  after(async () => {
    await killGames(h);
    await h?.close();
    await fake?.remove();
    execFileSync('umount', [mount]);
    await rm(mount, { recursive: true, force: true });
  });

  it('fails with the reason and leaves no partial file', async () => {
    const s = await createGameServer(h, fake);
    const id = (await h.api('POST', `/servers/${s.id}/backups`, { token: h.adminToken })).body.data.id;
    const backup = await finished(h, s.id, id);
    assert.equal(backup.status, 'failed');
    assert.match(backup.error, /the disk is full/);
    assert.deepEqual(await readdir(join(mount, String(s.id))), [], 'nothing half-written');
    assert.equal((await h.api('GET', '/system/health')).status, 200);
  });
});

describe("Garrison's own database, daily", () => {
  const clock = new FakeClock(new Date('2026-05-01T12:00:00Z'));
  let h: Harness;
  before(async () => {
    h = await startHarness({
      clock,
      dbBackupKeep: 2,
      metricsIntervalMs: 3_600_000,
      playersPollMs: 3_600_000,
      banExpiryCheckMs: 3_600_000,
      schedulePollMs: 3_600_000,
    });
  });
  after(() => h.close());

  it('is copied once a day on SQLite, the newest copies kept; MySQL/MariaDB are left to their own tools', async () => {
    const folder = join(h.dataDir, 'backups', 'garrison-db');
    const copies = async () => (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.db')).sort();
    // The runner plans the next copy when one ends; each day is passed only once it is planned, so a
    // copy still being written on a busy machine does not move the next one a day later.
    const planned = () => clock.timers.some((t) => t.label === 'database.backup' && t.inMs === 86_400_000);
    for (let day = 0; day < 3; day++) {
      if (!onMysql) await waitFor(planned, { what: 'the next copy planned' });
      await clock.advance(86_400_000);
    }
    if (onMysql) {
      assert.deepEqual(await copies(), []);
      return;
    }
    await waitFor(planned, { what: 'the third copy done' });
    assert.deepEqual(await copies(), ['garrison-2026-05-03.db', 'garrison-2026-05-04.db']);
  });
});
