import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as tar from 'tar';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { freeGamePorts, installFakeGameaTemp, waitFor } from '@garrison/testkit';
import { withDatabase, type Harness } from './helpers.js';
import { FAST_SUPERVISION, backupFinished, createGameServer, gameService, killGames, statusBecomes, upgradeSuite } from './games.js';

/** The names in a backup's archive, as downloaded. */
async function archiveEntries(h: Harness, serverId: number, id: number): Promise<string[]> {
  const download = await fetch(`${h.url}/api/servers/${serverId}/backups/${id}/download`, {
    headers: { authorization: `Bearer ${h.adminToken}` },
  });
  const dir = await mkdtemp(join(tmpdir(), 'garrison-archive-'));
  try {
    await writeFile(join(dir, 'a.tar.gz'), Buffer.from(await download.arrayBuffer()));
    const names: string[] = [];
    await tar.t({ file: join(dir, 'a.tar.gz'), onReadEntry: (e) => void names.push(e.path) });
    return names;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The launch arguments the game process was started with, as the kernel has them. */
const argsOf = async (pid: number) => (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
const argument = (args: string[], name: string) => args.find((a) => a.startsWith(`-${name}=`))?.slice(name.length + 2);
const rptIn = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.rpt')).sort();

describe('two servers on one installation', () => {
  const suite = gameService(FAST_SUPERVISION);
  const h = () => suite.h;
  const api = (method: string, path: string, body?: unknown) => h().api(method, path, { token: h().adminToken, body });

  it('says so when a server is made on an installation another server uses, naming it', async () => {
    const other = await installFakeGameaTemp();
    try {
      const first = await createGameServer(h(), other, { name: 'Alone' });
      assert.ok(!(first.warnings as string[]).includes('shares_installation'), 'alone on its installation');
      assert.equal(first.installation_shared_with, undefined, 'the answer as the contract has it for a server alone');
      const second = await createGameServer(h(), other, { name: 'Beside' });
      assert.ok((second.warnings as string[]).includes('shares_installation'), JSON.stringify(second.warnings));
      assert.deepEqual(second.installation_shared_with, [{ id: first.id, name: 'Alone' }]);
      // Said once: the record's own warnings are what needs attention, and this does not.
      assert.ok(!(await api('GET', `/servers/${second.id}`)).body.data.warnings.includes('shares_installation'));
      // Moved onto it later: folders of its own there too; the first keeps the usual ones, whoever goes.
      const elsewhere = await createGameServer(h(), suite.fake, { name: 'Elsewhere', exe_path: join(suite.fake.dir, 'gameaserver.exe') });
      assert.equal((await api('PUT', `/servers/${elsewhere.id}`, { exe_path: other.exePath })).status, 200);
      assert.equal((await api('DELETE', `/servers/${first.id}`)).status, 204);
      const keys = await withDatabase(h(), (knex) =>
        knex('servers').whereIn('id', [second.id, elsewhere.id]).orderBy('id').pluck('installation_key'),
      );
      assert.deepEqual(keys, [String(second.id), String(elsewhere.id)]);
      await api('DELETE', `/servers/${second.id}`);
      await api('DELETE', `/servers/${elsewhere.id}`);
    } finally {
      await other.remove();
    }
  });

  it(
    'each runs with its own profile folder and name, writes only its own profile, lists only its own logs and backs up only its ' +
      'own files',
    async () => {
      const first = await createGameServer(h(), suite.fake, { name: 'First' });
      const second = await createGameServer(h(), suite.fake, { name: 'Second' });
      const own = join(suite.fake.dir, `server_${second.id}`);
      const shared = join(suite.fake.dir, 'server');

      try {
        const pids: Record<number, number> = {};
        for (const s of [first, second]) {
          const started = await api('POST', `/servers/${s.id}/start`);
          assert.equal(started.status, 200, JSON.stringify(started.body));
          pids[s.id] = started.body.data.pid;
          await statusBecomes(h(), s.id, 'running');
        }
        const firstArgs = await argsOf(pids[first.id]);
        const secondArgs = await argsOf(pids[second.id]);
        assert.equal(argument(firstArgs, 'profiles'), shared, 'the first keeps <exe dir>/server');
        assert.equal(argument(firstArgs, 'name'), 'server');
        assert.equal(argument(secondArgs, 'profiles'), own);
        assert.equal(argument(secondArgs, 'name'), `server_${second.id}`);
        assert.notEqual(argument(firstArgs, 'bepath'), argument(secondArgs, 'bepath'), 'a BattlEye folder (and ban file) each');
        assert.notEqual(argument(firstArgs, 'config'), argument(secondArgs, 'config'));

        // The Log files tab: each lists the logs of its own folder, where its game writes them.
        const logs = async (id: number) =>
          ((await api('GET', `/servers/${id}/logfiles`)).body.data as { filename: string }[]).map((f) => f.filename).sort();
        await waitFor(async () => (await rptIn(own)).length > 0 && (await rptIn(shared)).length > 0, { what: 'both games to write a log' });
        assert.deepEqual(await logs(first.id), await rptIn(shared));
        assert.deepEqual(await logs(second.id), await rptIn(own));

        for (const s of [first, second]) assert.equal((await api('POST', `/servers/${s.id}/stop`)).status, 200);
        const secondProfile = join(own, 'Users', `server_${second.id}`, `server_${second.id}.GameaProfile`);
        const firstProfile = join(shared, 'Users', 'server', 'server.GameaProfile');
        const before = await readFile(secondProfile, 'utf8');

        // Saving the first one's profile, and its start writing it, leaves the second one's as it was.
        const section = (await api('GET', `/servers/${first.id}/config/profile`)).body.data;
        const saved = await api('PUT', `/servers/${first.id}/config/profile`, {
          skill_ai: 0.85,
          config_version: section._meta.config_version,
        });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        assert.equal((await api('POST', `/servers/${first.id}/start`)).status, 200);
        await statusBecomes(h(), first.id, 'running');
        assert.match(await readFile(firstProfile, 'utf8'), /skillAI\s*=\s*0\.85/);
        assert.equal(await readFile(secondProfile, 'utf8'), before, "the other server's profile is untouched");
        assert.equal((await api('POST', `/servers/${first.id}/stop`)).status, 200);

        // A backup of the second holds its own profile, not the first one's.
        await writeFile(join(shared, 'Users', 'server', 'server.vars.GameaProfile'), "the first one's persistence");
        await writeFile(join(own, 'Users', `server_${second.id}`, `server_${second.id}.vars.GameaProfile`), "the second one's persistence");
        const made = await api('POST', `/servers/${second.id}/backups`, {});
        assert.equal(made.status, 202, JSON.stringify(made.body));
        const backup = await backupFinished(h(), second.id, made.body.data.id);
        assert.equal(backup.status, 'done', JSON.stringify(backup));
        const names = await archiveEntries(h(), second.id, backup.id);
        const profileFiles = names.filter((n) => n.startsWith('profile/') && !n.endsWith('/'));
        assert.ok(
          profileFiles.includes(`profile/Users/server_${second.id}/server_${second.id}.vars.GameaProfile`),
          profileFiles.join(', '),
        );
        assert.ok(
          profileFiles.every((n) => n.startsWith(`profile/Users/server_${second.id}/`)),
          `only its own profile: ${profileFiles.join(', ')}`,
        );
      } finally {
        await killGames(h());
      }
    },
  );

  it('says so when an import adopts a server on an installation another server uses', async () => {
    const existing = await createGameServer(h(), suite.fake, { name: 'Already here' });
    const { game_port } = await freeGamePorts();
    const res = await api('POST', '/servers/import', {
      exe_path: suite.fake.exePath,
      command_line: `gameaserver_x64.exe -port=${game_port}`,
      dry_run: true,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const warning = (res.body.data.warnings as string[]).find((w) => w.startsWith('shares_installation'));
    assert.ok(warning, JSON.stringify(res.body.data.warnings));
    assert.match(warning, new RegExp(`server ${existing.id} \\("Already here"\\)`));
    assert.match(warning, /mpmissions\//, 'names what stays shared');
  });
});

describe('the upgrade of servers that shared an installation', () => {
  const suite = upgradeSuite();

  it(
    'copies the later server’s profile into its own folder once, ' + 'keeping every line, and leaves the logs and the first server alone',
    async () => {
      const { fake } = suite;
      const old = await suite.start();
      const first = await createGameServer(old, fake, { name: 'First' });
      const second = await createGameServer(old, fake, { name: 'Second' });
      // What an older version left: both servers on <exe dir>/server, one profile the game wrote lines into.
      const shared = join(fake.dir, 'server');
      const user = join(shared, 'Users', 'server');
      await mkdir(user, { recursive: true });
      const profile =
        'difficulty = "Custom";\r\nclass DifficultyPresets\r\n{\r\n\tclass CustomDifficulty\r\n\t{\r\n\t\tdisplayName = ' +
        '"Written by the game";\r\n\t\tlevelAI = "AILevelMedium";\r\n\t};\r\n};\r\nforeignKey[] = {1, 0, 1};\r\n';
      await writeFile(join(user, 'server.GameaProfile'), profile);
      await writeFile(join(user, 'server.vars.GameaProfile'), 'persistence: 42 vehicles');
      await writeFile(join(shared, 'gameaserver_x64_2026-01-01_10-00-00.rpt'), 'a log of either server');
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
      const upgraded = await suite.restart(
        old,
        async (knex) => {
          await knex('knex_migrations').where({ name: '018_installation_keys' }).delete();
          await knex.schema.alterTable('servers', (t) => {
            t.dropColumn('folders_pending');
            t.dropColumn('installation_key');
          });
        },
        { logger },
      );

      const own = join(fake.dir, `server_${second.id}`);
      const ownUser = join(own, 'Users', `server_${second.id}`);
      assert.equal(
        await readFile(join(ownUser, `server_${second.id}.GameaProfile`), 'utf8'),
        profile,
        'every line the game wrote, byte for byte',
      );
      assert.equal(await readFile(join(ownUser, `server_${second.id}.vars.GameaProfile`), 'utf8'), 'persistence: 42 vehicles');
      assert.deepEqual(await rptIn(own), [], 'the logs stay with the first server');
      assert.equal(await readFile(join(user, 'server.GameaProfile'), 'utf8'), profile, "the first server's profile is left as it was");
      assert.deepEqual(await rptIn(shared), ['gameaserver_x64_2026-01-01_10-00-00.rpt']);
      const told = lines.map((l) => JSON.parse(l)).filter((l) => /own folders|folders of its own/.test(l.msg));
      assert.deepEqual(
        told.map((l) => l.serverId),
        [second.id],
        'the log says which server moved',
      );
      const rows = await withDatabase(upgraded, (knex) =>
        knex('servers').select('id', 'installation_key', 'folders_pending').orderBy('id'),
      );
      assert.deepEqual(
        rows.map((r) => [r.id, r.installation_key, Boolean(r.folders_pending)]),
        [
          [first.id, null, false],
          [second.id, String(second.id), false],
        ],
      );

      // Once: a later start of the service copies nothing again.
      await writeFile(join(user, 'server.vars.GameaProfile'), "the first server's own, later");
      const again = await suite.restart(upgraded);
      assert.equal(await readFile(join(ownUser, `server_${second.id}.vars.GameaProfile`), 'utf8'), 'persistence: 42 vehicles');

      // And the game now runs on it.
      const started = await again.api('POST', `/servers/${second.id}/start`, { token: again.adminToken });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      await statusBecomes(again, second.id, 'running');
      const args = await argsOf(started.body.data.pid);
      assert.equal(argument(args, 'profiles'), own);
      assert.equal(argument(args, 'name'), `server_${second.id}`);
      assert.ok(existsSync(join(ownUser, `server_${second.id}.vars.GameaProfile`)));
    },
  );
});
