import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { backupFinished, createGameServer, upgradeSuite } from './games.js';

/**
 * Issue 30: a backup made before the one-profile-per-server upgrade holds the server's profile as the
 * shared folder had it (`Users/server/server.*`). Restored into the server that now has its own
 * `server_<id>` folder, the profile goes where the game now reads it, and the server that keeps the
 * shared folder is not touched.
 */
describe('restoring a backup made before the server had its own profile folder', () => {
  const suite = upgradeSuite();
  const { restart } = suite;

  it("puts the profile under the server's own name, and leaves the shared folder's alone", async () => {
    const { fake } = suite;
    const first = await suite.start();
    await createGameServer(first, fake, { name: 'First' });
    const second = await createGameServer(first, fake, { name: 'Second' });
    // Before the upgrade: the second server had no key, and its profile was the shared one.
    const before = await restart(first, (knex) => knex('servers').where({ id: second.id }).update({ installation_key: null }));
    const shared = join(fake.dir, 'server', 'Users', 'server');
    await mkdir(shared, { recursive: true });
    const profile = 'difficulty = "regular";\r\nclass DifficultyPresets { class CustomDifficulty { levelAI = "AILevelMedium"; }; };\r\n';
    await writeFile(join(shared, 'server.GameaProfile'), profile);
    await writeFile(join(shared, 'server.vars.GameaProfile'), 'persistence: 42 vehicles');
    const made = await before.api('POST', `/servers/${second.id}/backups`, {
      token: before.adminToken,
      body: { note: 'before the upgrade' },
    });
    assert.equal(made.status, 202, JSON.stringify(made.body));
    const backup = await backupFinished(before, second.id, made.body.data.id);
    assert.equal(backup.status, 'done', JSON.stringify(backup));

    // The upgrade gave it its own folder; the shared one is the first server's, which writes on in it.
    const after_ = await restart(before, (knex) =>
      knex('servers')
        .where({ id: second.id })
        .update({ installation_key: String(second.id), folders_pending: false }),
    );
    await writeFile(join(shared, 'server.GameaProfile'), "the first server's own, later");
    await writeFile(join(shared, 'server.vars.GameaProfile'), "the first server's own, later");

    const restored = await after_.api('POST', `/servers/${second.id}/backups/${backup.id}/restore`, { token: after_.adminToken });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    const own = join(fake.dir, `server_${second.id}`, 'Users', `server_${second.id}`);
    assert.equal(
      await readFile(join(own, `server_${second.id}.GameaProfile`), 'utf8'),
      profile,
      'the profile, where the game reads it now',
    );
    assert.equal(await readFile(join(own, `server_${second.id}.vars.GameaProfile`), 'utf8'), 'persistence: 42 vehicles');
    assert.equal(
      existsSync(join(fake.dir, `server_${second.id}`, 'Users', 'server')),
      false,
      'not under the old name, where the game never looks',
    );
    assert.equal(
      await readFile(join(shared, 'server.GameaProfile'), 'utf8'),
      "the first server's own, later",
      "the first server's profile untouched",
    );
  });
});
