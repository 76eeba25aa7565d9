import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sectionDefaults, type ServerContext } from '@garrison/core';
import gamea from '@garrison/adapter-gamea';
import { BattlEyeClient } from '@garrison/adapter-gamea/battleye';
import { FakeRconServer, installFakeGameaTemp, startGarrison } from '@garrison/testkit';

test('a fake BattlEye RCon server on real UDP', async () => {
  const rcon = await FakeRconServer.start({ password: 'Secret1' });
  rcon.join('Bravo17', '80a5885ebe2420bab5e1581234567890', '10.0.0.5'); // sends the join messages
  rcon.handle('version', () => '1.217'); // add or override any command

  const client = await BattlEyeClient.connect({ host: '127.0.0.1', port: rcon.port, password: 'Secret1', resendMs: 100 });
  assert.match(await client.command('players'), /^0   10\.0\.0\.5:2304 .* Bravo17$/m);
  rcon.faults.dropEveryNth = 4; // lose every 4th datagram each way; also delayMs, refuseLogins, silent
  assert.equal(await client.command('version'), '1.217');
  await client.close();
  await rcon.close();
});

test('Garrison in-process, with an admin and a viewer', async () => {
  const garrison = await startGarrison(); // random port, temp data dir, SQLite (GARRISON_TEST_DATABASE for MariaDB)
  try {
    const body = { name: 'Example', exe_path: '/srv/gamea/gameaserver_x64.exe', game_port: 2402 };
    const created = await garrison.api('POST', '/servers', { token: garrison.adminToken, body });
    assert.equal(created.status, 201);
    const denied = await garrison.api('DELETE', `/servers/${created.body.data.id}`, { token: garrison.viewerToken });
    assert.equal(denied.body.error.code, 'FORBIDDEN');
  } finally {
    await garrison.close();
  }
});

test('the fake dedicated server, a real process', async () => {
  const fake = await installFakeGameaTemp(); // gameaserver_x64.exe, gameaserver.exe, mpmissions/
  const ctx: ServerContext = {
    server: { id: 1, name: 'example', exe_path: fake.exePath, game_port: 2502, rcon_port: 2505 },
    serverDir: `${fake.dir}/garrison-files`,
    exeDir: fake.dir,
  };
  const { config_generator, process_config } = gamea.capabilities;
  const config = Object.fromEntries(Object.entries(config_generator.sections).map(([name, s]) => [name, sectionDefaults(s)]));
  config.rcon!.rcon_password = 'FakePass1';
  for (const file of config_generator.render(config, ctx)) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.content);
  }
  const game = spawn(fake.exePath, process_config.launchArguments(config, ctx), { env: { ...process.env, GAMEA_FAKE_PLAYERS: '3' } });
  const exited = new Promise((resolve) => game.once('exit', resolve));

  const client = await BattlEyeClient.connect({ host: '127.0.0.1', port: 2505, password: 'FakePass1' });
  assert.match(await client.command('players'), /\(3 players in total\)/);
  await client.command('testkit.log warning disk nearly full'); // also testkit.join, .leave, .crash, .hang
  await client.command('#shutdown');
  assert.equal(await exited, 0);
  await client.close();
  await fake.remove();
});
