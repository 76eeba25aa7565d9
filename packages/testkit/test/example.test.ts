import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sectionDefaults, type ServerContext } from '@garrison/core';
import gamea from '@garrison/adapter-gamea';
import { BattlEyeClient } from '@garrison/battleye';
import { FakeRconServer, connectRcon, freeGamePorts, installFakeGameaTemp, startProcess, withDeadline } from '@garrison/testkit';
import { startGarrison } from '@garrison/testkit/harness';

// Free ports only, readiness awaited with a deadline, every process killed in `finally`: this runs on
// a busy machine, maybe beside another suite. `--test-timeout` bounds each test.

test('a fake BattlEye RCon server on real UDP', async () => {
  const rcon = await FakeRconServer.start({ password: 'Secret1' }); // a free port unless one is given
  try {
    rcon.join('Bravo17', '80a5885ebe2420bab5e1581234567890', '10.0.0.5'); // sends the join messages
    rcon.handle('version', () => '1.217'); // add or override any command
    const client = await BattlEyeClient.connect({ host: '127.0.0.1', port: rcon.port, password: 'Secret1', resendMs: 100 });
    try {
      assert.match(await client.command('players'), /^0 {3}10\.0\.0\.5:2304 .* Bravo17$/m);
      rcon.faults.dropEveryNth = 4; // lose every 4th datagram each way; also delayMs, refuseLogins, silent
      assert.equal(await client.command('version'), '1.217');
    } finally {
      await client.close();
    }
  } finally {
    await rcon.close();
  }
});

test('Garrison in-process, with an admin and a viewer', async () => {
  const garrison = await startGarrison(); // random port, temp data dir, SQLite (GARRISON_TEST_DATABASE for MariaDB)
  try {
    const body = { name: 'Example', exe_path: '/srv/gamea/gameaserver_x64.exe', ...(await freeGamePorts()) };
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
  const ports = await freeGamePorts(); // game_port, and rcon_port = game_port + 3
  const ctx: ServerContext = {
    server: { id: 1, name: 'example', exe_path: fake.exePath, ...ports },
    serverDir: `${fake.dir}/garrison-files`,
    exeDir: fake.dir,
  };
  const { config_generator, process_config } = gamea.capabilities;
  const config = Object.fromEntries(Object.entries(config_generator.sections).map(([name, s]) => [name, sectionDefaults(s)]));
  config.rcon.rcon_password = 'FakePass1';
  for (const file of config_generator.render(config, ctx)) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.content);
  }
  const env = { ...process.env, GAMEA_FAKE_PLAYERS: '3' };
  const game = startProcess(fake.exePath, process_config.launchArguments(config, ctx), { env });
  try {
    // Logs in as soon as the game answers, trying again until 30 s have passed.
    const client = await connectRcon({ host: '127.0.0.1', port: ports.rcon_port, password: 'FakePass1' });
    try {
      assert.match(await client.command('players'), /\(3 players in total\)/);
      await client.command('testkit.log warning disk nearly full'); // also testkit.join, .leave, .crash, .hang
      await client.command('#shutdown');
      assert.equal(await withDeadline(game.exited, 10_000, "the game's exit"), 0);
    } finally {
      await client.close();
    }
  } finally {
    await game.kill(); // a no-op when it has exited
    await fake.remove();
  }
});
