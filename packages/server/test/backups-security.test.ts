import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { waitFor } from '@garrison/testkit';
import { expectError, startHarness, withDatabase, type Harness } from './helpers.js';
import { FAST_SUPERVISION, createGameServer, gameService } from './games.js';

const PROFILE = 'server';
const VARS = join(PROFILE, 'Users', 'server', 'server.vars.GameaProfile');
const LIMITS = { restoreMaxBytes: 1024 * 1024, restoreMaxFiles: 50 };

const finished = (h: Harness, serverId: number, id: number) =>
  waitFor(
    async () => {
      const b = (await h.api('GET', `/servers/${serverId}/backups/${id}`, { token: h.adminToken })).body.data;
      return b.status !== 'running' && b;
    },
    { what: `backup ${id} to finish` },
  );

const backupOf = async (h: Harness, serverId: number) => {
  const backup = await finished(h, serverId, (await h.api('POST', `/servers/${serverId}/backups`, { token: h.adminToken })).body.data.id);
  assert.equal(backup.status, 'done', JSON.stringify(backup));
  const dir = join(h.dataDir, 'backups', String(serverId));
  const [file] = (await readdir(dir))
    .filter((n) => n.endsWith('.tar.gz') && !n.startsWith('.'))
    .sort()
    .reverse();
  return { backup, dir, file: join(dir, file) };
};

/** The archive's manifest.json, as written. */
async function manifestOf(archive: string): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'garrison-manifest-'));
  try {
    await tar.x({ file: archive, cwd: work, filter: (p) => p === 'manifest.json' });
    return await readFile(join(work, 'manifest.json'), 'utf8');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** An archive made by hand (`build` fills a folder) put in place of a backup's, its checksum made to match. */
async function plant(h: Harness, backupId: number, archive: string, build: (work: string) => Promise<void>): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'garrison-crafted-'));
  try {
    await build(work);
    await tar.c({ gzip: true, cwd: work, file: archive, portable: false }, await readdir(work));
    const sum = createHash('sha256')
      .update(await readFile(archive))
      .digest('hex');
    await withDatabase(h, (knex) => knex('backups').where({ id: backupId }).update({ sha256: sum }));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The server's profile folder: its own once another server shares the installation (the adapter's layout). */
const profileOf = (s: { id: number; installation_shared_with?: unknown[] }) =>
  s.installation_shared_with?.length ? `server_${s.id}` : PROFILE;
const PROFILE_ONLY = JSON.stringify({ config_sections: {}, parts: [{ name: 'profile', path: '/x' }] });

/** The stored (unmasked) value of a config field. */
const stored = (h: Harness, serverId: number, section: string, field: string) =>
  withDatabase(h, async (knex) => JSON.parse((await knex('config_sections').where({ server_id: serverId, section }).first()).data)[field]);

const restore = (h: Harness, serverId: number, backupId: number) =>
  h.api('POST', `/servers/${serverId}/backups/${backupId}/restore`, { token: h.adminToken });

describe('restoring an archive made to harm', () => {
  const suite = gameService({ ...FAST_SUPERVISION, ...LIMITS }, async (fake) => {
    await mkdir(join(fake.dir, PROFILE, 'Users', 'server'), { recursive: true });
    await writeFile(join(fake.dir, VARS), 'persistence: 42 vehicles');
  });
  const h = () => suite.h;

  /** No staging folder of a restore is left anywhere it makes them. */
  const noLeftovers = async (serverId: number) => {
    for (const dir of [suite.fake.dir, join(h().dataDir, 'servers'), join(h().dataDir, 'backups', String(serverId))]) {
      const left = (await readdir(dir)).filter((n) => n.startsWith('.restore'));
      assert.deepEqual(left, [], `nothing left in ${dir}`);
    }
  };

  it('refuses one that expands past GARRISON_RESTORE_MAX_BYTES (a few KiB holding 2 MiB), writing nothing', async () => {
    const s = await createGameServer(h(), suite.fake);
    const { backup, file } = await backupOf(h(), s.id);
    await plant(h(), backup.id, file, async (work) => {
      await writeFile(join(work, 'manifest.json'), PROFILE_ONLY);
      await mkdir(join(work, 'profile'));
      await writeFile(join(work, 'profile', 'bomb.bin'), Buffer.alloc(2 * 1024 * 1024));
    });
    assert.ok((await stat(file)).size < 64 * 1024, 'a small archive');
    const error = expectError(await restore(h(), s.id, backup.id), 400, 'VALIDATION_ERROR');
    assert.match(error.message, /more than 1048576 bytes \(GARRISON_RESTORE_MAX_BYTES\)/);
    assert.match(error.message, /nothing was changed/);
    await assert.rejects(stat(join(suite.fake.dir, profileOf(s), 'bomb.bin')), { code: 'ENOENT' });
    assert.equal(await readFile(join(suite.fake.dir, VARS), 'utf8'), 'persistence: 42 vehicles');
    await noLeftovers(s.id);
  });

  it('refuses one holding more entries than GARRISON_RESTORE_MAX_FILES, writing nothing', async () => {
    const s = await createGameServer(h(), suite.fake);
    const { backup, file } = await backupOf(h(), s.id);
    await plant(h(), backup.id, file, async (work) => {
      await writeFile(join(work, 'manifest.json'), PROFILE_ONLY);
      await mkdir(join(work, 'profile', 'many'), { recursive: true });
      for (let i = 0; i < 60; i++) await writeFile(join(work, 'profile', 'many', `f${i}`), 'x');
    });
    const error = expectError(await restore(h(), s.id, backup.id), 400, 'VALIDATION_ERROR');
    assert.match(error.message, /more than 50 entries \(GARRISON_RESTORE_MAX_FILES\)/);
    await assert.rejects(stat(join(suite.fake.dir, profileOf(s), 'many')), { code: 'ENOENT' });
    await noLeftovers(s.id);
  });

  it('drops setuid, setgid and sticky bits, keeping the rest of the mode', async () => {
    const s = await createGameServer(h(), suite.fake);
    const { backup, file } = await backupOf(h(), s.id);
    await plant(h(), backup.id, file, async (work) => {
      await writeFile(join(work, 'manifest.json'), PROFILE_ONLY);
      await mkdir(join(work, 'profile', 'shared'), { recursive: true });
      await writeFile(join(work, 'profile', 'tool'), '#!/bin/sh\nid\n');
      await chmod(join(work, 'profile', 'tool'), 0o6755);
      await chmod(join(work, 'profile', 'shared'), 0o3775);
    });
    const res = await restore(h(), s.id, backup.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const tool = await stat(join(suite.fake.dir, profileOf(s), 'tool'));
    assert.equal(tool.mode & 0o7777, 0o755, `tool is ${(tool.mode & 0o7777).toString(8)}`);
    const shared = await stat(join(suite.fake.dir, profileOf(s), 'shared'));
    assert.equal(shared.mode & 0o7000, 0, `shared is ${(shared.mode & 0o7777).toString(8)}`);
  });
});

/** Sealed as the service seals, but with the key of another signing secret (a rotated one). */
function sealedWithAnotherSecret(text: string): string {
  const key = Buffer.from(hkdfSync('sha256', 'a signing secret rotated away long ago', 'garrison', 'backup-secrets', 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
}

describe("a backup's archive and the game's passwords", () => {
  const suite = gameService(FAST_SUPERVISION);
  const h = () => suite.h;

  const setPassword = async (serverId: number, value: string) => {
    const section = (await h().api('GET', `/servers/${serverId}/config/server`, { token: h().adminToken })).body.data;
    const res = await h().api('PUT', `/servers/${serverId}/config/server`, {
      token: h().adminToken,
      body: { password_admin: value, config_version: section._meta.config_version },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };

  it('is 0600 in a 0700 folder, and its manifest holds no password in clear; a restore puts them back', async () => {
    const s = await createGameServer(h(), suite.fake);
    await setPassword(s.id, 'AdminBefore1');
    const { backup, dir, file } = await backupOf(h(), s.id);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    const rcon = await stored(h(), s.id, 'rcon', 'rcon_password');
    assert.ok(rcon, 'the server has an RCon password');
    const text = await manifestOf(file);
    assert.ok(!text.includes('AdminBefore1'), 'no admin password in clear');
    assert.ok(!text.includes(rcon), 'no RCon password in clear');
    const manifest = JSON.parse(text);
    assert.equal(manifest.config_sections.server.password_admin, '***');
    assert.match(manifest.sealed_secrets, /^v1:/);

    await setPassword(s.id, 'AdminAfter2');
    const res = await restore(h(), s.id, backup.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.doesNotMatch(res.body.data.message, /current ones/);
    assert.equal(await stored(h(), s.id, 'server', 'password_admin'), 'AdminBefore1');
    assert.equal(await stored(h(), s.id, 'rcon', 'rcon_password'), rcon);
  });

  it(
    'restores an archive written before sealing (passwords in clear), and keeps the current ones when they were sealed with ' +
      'another secret',
    async () => {
      const s = await createGameServer(h(), suite.fake);
      await setPassword(s.id, 'AdminNow3');
      const { backup, file } = await backupOf(h(), s.id);
      const manifest = JSON.parse(await manifestOf(file));
      const rewrite = async (change: (m: typeof manifest) => void) => {
        change(manifest);
        await plant(h(), backup.id, file, async (into) => {
          await tar.x({ file, cwd: into });
          await writeFile(join(into, 'manifest.json'), JSON.stringify(manifest));
        });
      };

      // The old format: every field in clear, nothing sealed.
      await rewrite((m) => {
        delete m.sealed_secrets;
        m.config_sections.server.password_admin = 'AdminOldClear4';
        m.config_sections.rcon.rcon_password = 'RconOldClear4';
      });
      const old = await restore(h(), s.id, backup.id);
      assert.equal(old.status, 200, JSON.stringify(old.body));
      assert.equal(await stored(h(), s.id, 'server', 'password_admin'), 'AdminOldClear4');
      assert.equal(await stored(h(), s.id, 'rcon', 'rcon_password'), 'RconOldClear4');

      // Sealed with a signing secret since rotated: the files and other settings come back, the passwords stay.
      await rewrite((m) => {
        m.config_sections.server.password_admin = '***';
        m.config_sections.rcon.rcon_password = '***';
        m.config_sections.server.hostname = 'From the rotated backup';
        m.sealed_secrets = sealedWithAnotherSecret(
          JSON.stringify({ server: { password_admin: 'Stolen5' }, rcon: { rcon_password: 'Stolen5' } }),
        );
      });
      const rotated = await restore(h(), s.id, backup.id);
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.match(rotated.body.data.message, /sealed with another signing secret .* keeps its current ones/);
      assert.equal(await stored(h(), s.id, 'server', 'password_admin'), 'AdminOldClear4');
      assert.equal(await stored(h(), s.id, 'rcon', 'rcon_password'), 'RconOldClear4');
      assert.equal(await stored(h(), s.id, 'server', 'hostname'), 'From the rotated backup');
    },
  );

  it('answers PUT {} with the backup unchanged, and audits lock, unlock and note changes', async () => {
    const s = await createGameServer(h(), suite.fake);
    const { backup } = await backupOf(h(), s.id);
    const put = (body: unknown) => h().api('PUT', `/servers/${s.id}/backups/${backup.id}`, { token: h().adminToken, body });
    const empty = await put({});
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.equal(empty.body.data.locked, false);
    assert.equal(empty.body.data.note, backup.note);
    assert.equal((await put({ locked: true, note: 'before the update' })).body.data.locked, true);
    assert.equal((await put({ locked: false })).body.data.locked, false);
    assert.equal((await put({ note: null })).body.data.note, null);
    const trail = (await h().api('GET', `/servers/${s.id}/events?event_type=backup_updated`, { token: h().adminToken })).body.data;
    const details = trail.events.map((e: { detail: unknown; actor: string }) => ({ ...(e.detail as object), actor: e.actor })).reverse();
    assert.deepEqual(details, [
      { backup_id: backup.id, locked: true, note: 'before the update', actor: 'admin' },
      { backup_id: backup.id, locked: false, actor: 'admin' },
      { backup_id: backup.id, note: null, actor: 'admin' },
    ]);
  });
});

describe('archives written by an earlier version', () => {
  let h: Harness;
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'garrison-old-backups-'));
    await mkdir(join(root, '7'), { mode: 0o755 });
    await chmod(join(root, '7'), 0o755);
    await writeFile(join(root, '7', 'backup-2026-01-01.tar.gz'), 'an archive', { mode: 0o644 });
    h = await startHarness({ backupDir: root });
  });
  after(async () => {
    await h?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('are made 0600 in 0700 folders when the service starts', async () => {
    assert.equal((await stat(join(root, '7'))).mode & 0o777, 0o700);
    assert.equal((await stat(join(root, '7', 'backup-2026-01-01.tar.gz'))).mode & 0o777, 0o600);
  });
});
