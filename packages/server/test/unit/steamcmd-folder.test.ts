import { unitContainer, type UnitContainer } from './container.js';
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, SYSTEM_ACTOR } from '@garrison/core';
import { ServerService } from '../../src/servers/service.js';
import { InstallService } from '../../src/steam/install/service.js';
import { WorkshopService } from '../../src/steam/workshop/service.js';
import { steamFolderProblem } from '../../src/steam/steamcmd-folder.js';
import { featureModules } from '../../src/compose.js';
import { migrate } from '../../src/db/connection.js';
import { moduleMigrations } from '../../src/modules/assembly.js';
import type { SettingsInput } from '../../src/settings.js';

/** Folders SteamCMD's command line would misread: a quote ends the value, `;` and a line break the command, a space splits it. */
const BAD = ['/srv/games/a "b', '/srv/games/a;b', '/srv/games/a\nb', '/srv/games/a\rb', '/srv/games/two  spaces', '/srv/gämes', '/srv/a+b'];

const refusedWith = (message: RegExp) => (err: unknown) =>
  err instanceof ApiError && err.code === 'VALIDATION_ERROR' && message.test(err.message);

describe('the folders SteamCMD is given', () => {
  let u: UnitContainer | undefined;
  afterEach(() => u?.close());
  /** The container, with the feature modules' tables (background jobs, Workshop items) the unit tier leaves out. */
  const withModules = async (settings?: SettingsInput) => {
    const made = await unitContainer({ settings });
    await migrate(made.db, made.clock, moduleMigrations(featureModules()));
    return made;
  };

  it('are plain: letters, digits, _ - . and the separators, nothing SteamCMD would have to quote', () => {
    for (const ok of ['/srv/garrison/servers/1', '/tmp/garrison-steam-dir-AbC_1.2', '/'])
      assert.equal(steamFolderProblem(ok, 'linux'), null, ok);
    for (const ok of ['C:\\Games\\Server_1', 'D:/steam']) assert.equal(steamFolderProblem(ok, 'win32'), null, ok);
    for (const bad of BAD) assert.match(steamFolderProblem(bad, 'linux') ?? '', /may hold only letters/, JSON.stringify(bad));
    assert.match(steamFolderProblem('/srv/a;b', 'linux')!, /holds ";"/);
    assert.match(steamFolderProblem('/srv/a\nb', 'linux')!, /a space or line break/);
    for (const bad of ['C:\\Program Files\\Server', 'C:\\a"b', '\\\\host\\share', 'relative\\dir'])
      assert.notEqual(steamFolderProblem(bad, 'win32'), null, bad);
    // Only ever in the runscript, quoted: single spaces inside names (`Arma 3 Server`), never two nor at an end.
    assert.equal(steamFolderProblem('/srv/steamapps/common/Game 3 Server', 'linux', true), null);
    assert.equal(steamFolderProblem('C:\\Program Files (x86)\\Game', 'win32', true) === null, false, 'parentheses are not taken');
    assert.equal(steamFolderProblem('C:\\Program Files\\Game 3 Server', 'win32', true), null);
    for (const bad of ['/srv/two  spaces', '/srv/end ', '/srv/ start', '/srv/a "b', '/srv/a;b'])
      assert.notEqual(steamFolderProblem(bad, 'linux', true), null, bad);
  });

  it('refuses an install into such a folder at the request, before any job (400)', async () => {
    u = await withModules();
    const servers = u.resolve(ServerService);
    const installs = u.resolve(InstallService);
    let port = 2302;
    for (const dir of BAD) {
      const server = await servers.create({ name: `S${port}`, exe_path: `${dir}/gameaserver_x64.exe`, game_port: port }, SYSTEM_ACTOR);
      port += 10;
      await assert.rejects(installs.request(server.id, undefined, SYSTEM_ACTOR), refusedWith(/the installation folder .* may hold only/));
      assert.deepEqual(await u.db.knex('background_jobs').where({ server_id: server.id }), [], 'no job');
    }
  });

  it('refuses Workshop items while GARRISON_STEAM_DIR is such a folder, before Steam is asked or anything queued', async () => {
    u = await withModules({ steamDir: '/srv/steam;+quit' });
    const server = await u
      .resolve(ServerService)
      .create({ name: 'W', exe_path: '/srv/w/gameaserver_x64.exe', game_port: 2402 }, SYSTEM_ACTOR);
    const workshop = u.resolve(WorkshopService);
    await assert.rejects(workshop.resolve(server.id, { items: ['2200001'] }), refusedWith(/GARRISON_STEAM_DIR .* holds ";"/));
    const item = { workshop_id: '2200001', title: 'Alpha', time_updated: 1, size_bytes: 1 };
    await assert.rejects(workshop.queue(server.id, { items: [item], refused: [] }), refusedWith(/GARRISON_STEAM_DIR/));
    assert.deepEqual(await workshop.list(server.id), []);
  });
});
