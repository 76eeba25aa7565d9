import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installFakeGameb, launchFakeGameb, type FakeGameb } from '../src/index.js';

const running: FakeGameb[] = [];
const dirs: string[] = [];
after(async () => {
  for (const game of running) await game.stop().catch(() => {});
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function launch(dir?: string): Promise<FakeGameb> {
  const game = await launchFakeGameb({ dir });
  running.push(game);
  return game;
}

/** An install with ban files already in cfg/, as Garrison (or an admin) left them. */
async function installWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'garrison-fake-gameb-bans-'));
  dirs.push(dir);
  await installFakeGameb(dir);
  await mkdir(join(dir, 'cfg'), { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, 'cfg', name), text);
  return dir;
}

const log = async (game: FakeGameb) => {
  const files = (await readdir(join(game.dir, 'logs'))).sort();
  return readFile(join(game.dir, 'logs', files.at(-1)!), 'utf8');
};

describe('the fake gameb bans', () => {
  it('banid with kick takes the player off, and refuses their return, by either SteamID form', async () => {
    const game = await launch();
    assert.equal(await game.command('testkit.join Cheater STEAM_0:1:1234 9.9.9.9:27005'), 'joined userid 2\n');
    assert.equal(await game.command('banid 0 2 kick'), '');
    assert.match(await game.command('status'), /^players : 0 humans/m);
    assert.match(
      await game.command('testkit.join Cheater [U:1:2469] 9.9.9.9'),
      /refused: You have been banned from this server \(STEAM ID\)/,
    );
    assert.equal(await game.command('listid'), 'ID filter list: 1 entry\n1 STEAM_0:1:1234 : permanent\n');
    const text = await log(game);
    assert.match(text, /Banid: "Cheater<2><STEAM_0:1:1234><>" was banned "permanently" by "Console"/);
    assert.match(text, /"Cheater<2><STEAM_0:1:1234><>" disconnected \(reason "Kicked and banned"\)/);
    assert.match(text, /Rejected connection from "Cheater<STEAM_0:1:1234>" \(9\.9\.9\.9:27005\): You have been banned/);

    // removeid in the other form lets them back; a timed ban by SteamID of a player who is off.
    assert.equal(await game.command('removeid [U:1:2469]'), '');
    assert.match(await game.command('removeid STEAM_0:1:1234'), /couldn't find STEAM_0:1:1234/);
    assert.equal(await game.command('testkit.join Cheater STEAM_0:1:1234 9.9.9.9'), 'joined userid 3\n');
    assert.equal(await game.command('banid 30 [U:1:42]'), '');
    assert.match(await game.command('listid'), /^1 STEAM_0:0:21 : (29\.9\d\d|30\.000) min$/m);
    assert.match(await log(game), /Banid: "<><STEAM_0:0:21><>" was banned "for 30\.00 minutes" by "Console"/);
    assert.match(await game.command('testkit.join Other STEAM_0:0:21 2.2.2.2'), /refused/);
    assert.match(await game.command('banid 0 STEAM_X'), /couldn't parse "STEAM_X"/);
    assert.match(await game.command('banid forever STEAM_0:0:1'), /^Usage: {2}banid/);
  });

  it('addip refuses an address; removeip and listip', async () => {
    const game = await launch();
    assert.equal(await game.command('addip 0 7.7.7.7'), '');
    assert.match(await game.command('testkit.join Someone STEAM_0:0:77 7.7.7.7:27005'), /refused: .*\(IP\)/);
    assert.equal(await game.command('listip'), 'IP filter list: 1 entry\n1 7.7.7.7 : permanent\n');
    assert.match(await game.command('addip 0 not.an.ip'), /not a valid IP address/);
    assert.equal(await game.command('removeip 7.7.7.7'), '');
    assert.equal(await game.command('listip'), 'IP filter list: empty\n');
    assert.equal(await game.command('testkit.join Someone STEAM_0:0:77 7.7.7.7:27005'), 'joined userid 2\n');
  });

  it('loads the ban files at launch, tolerating foreign lines, and leaves them byte for byte until writeid/writeip', async () => {
    const users = '// managed by Garrison\r\nbanid 0 STEAM_0:1:1234\r\nbanid 0.0 [U:1:500]\r\nsomething the game cannot read\r\n\r\n';
    const ips = 'addip 0 1.2.3.4 // a comment\naddip 0.000000 5.6.7.8\nnot a line\n';
    const dir = await installWith({ 'banned_user.cfg': users, 'banned_ip.cfg': ips });
    const game = await launch(dir);
    assert.match(await game.command('testkit.join Back STEAM_0:1:1234 3.3.3.3'), /refused: .*STEAM ID/);
    assert.match(await game.command('testkit.join Back3 [U:1:500] 3.3.3.3'), /refused: .*STEAM ID/);
    assert.match(await game.command('testkit.join ByIp STEAM_0:0:9 5.6.7.8:27005'), /refused: .*\(IP\)/);
    assert.match(await game.command('listid'), /^ID filter list: 2 entries\n1 STEAM_0:1:1234 : permanent\n2 STEAM_0:0:250 : permanent\n$/);

    // Commands change the lists in memory; the files are the game's to write only on writeid/writeip.
    await game.command('banid 0 STEAM_0:0:999');
    await game.command('banid 10 STEAM_0:0:555');
    await game.command('removeid STEAM_0:1:1234');
    await game.command('addip 0 8.8.8.8');
    await game.command('removeip 1.2.3.4');
    assert.equal(await readFile(join(dir, 'cfg', 'banned_user.cfg'), 'utf8'), users);
    assert.equal(await readFile(join(dir, 'cfg', 'banned_ip.cfg'), 'utf8'), ips);

    // writeid/writeip rewrite the whole file from the permanent bans, as srcds does (Garrison never sends them).
    await game.command('writeid');
    await game.command('writeip');
    assert.equal(await readFile(join(dir, 'cfg', 'banned_user.cfg'), 'utf8'), 'banid 0 STEAM_0:0:250\nbanid 0 STEAM_0:0:999\n');
    assert.equal(await readFile(join(dir, 'cfg', 'banned_ip.cfg'), 'utf8'), 'addip 0 5.6.7.8\naddip 0 8.8.8.8\n');
  });

  it('reloads a ban file on exec, so a tool that wrote it can make the running game hold its bans', async () => {
    const game = await launch();
    await writeFile(join(game.dir, 'cfg', 'banned_user.cfg'), '// from a tool\nbanid 0 STEAM_0:0:4242\n');
    assert.equal(await game.command('exec banned_user.cfg'), '');
    assert.match(await game.command('testkit.join Late STEAM_0:0:4242 4.4.4.4'), /refused/);
    assert.match(await game.command('exec missing.cfg'), /couldn't exec missing\.cfg/);
    await writeFile(join(game.dir, 'cfg', 'loop.cfg'), 'exec loop.cfg\n');
    assert.match(await game.command('exec loop.cfg'), /^(exec: couldn't exec loop\.cfg\n)?$/, 'a loop ends');
    assert.equal(await game.command('echo alive'), 'alive\n');
  });
});
