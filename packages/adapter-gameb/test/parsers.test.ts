import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, type LivePlayer } from '@garrison/core';
import gameb, { isSteamId, missionOf, normalizeSteamId, parseBanLine, parseLogLine, parseStatus } from '../src/index.js';

const remote = gameb.capabilities.remote_admin;

// `status` as the engine branches print it: an older one with STEAM_0 ids, a SteamID3 one, one with a slot column and rate.
const STATUS_STEAM2 = [
  'hostname: Garrison Test Server',
  'version : 1.0.0.73/13 5394 secure',
  'udp/ip  :  0.0.0.0:27015',
  'map     : de_dust2 at: 0 x, 0 y, 0 z',
  'players : 3 (24 max)',
  '',
  '# userid name uniqueid connected ping loss state adr',
  '#      2 "Player One"    STEAM_0:1:1234  05:12   67    0 active 1.2.3.4:27005',
  '#      3 "Bob" BOT active',
  '#      4 "He said "hi" ;)"  STEAM_1:0:99  1:02:03  120  5 spawning 10.0.0.9:27006',
  '#      5 "joining"  STEAM_ID_PENDING  00:03  0  0 connected 10.0.0.10:27007',
  '',
].join('\n');
const STATUS_STEAM3 = [
  'hostname: TF test',
  'map     : cp_badlands at: 0 x, 0 y, 0 z',
  'players : 2 humans, 1 bots (24 max)',
  '# userid name                uniqueid            connected ping loss state  adr',
  '#     12 "Ünï Cødé"          [U:1:2469]          42:10       35    0 active 203.0.113.7:27005',
  '#     13 "Medic"             BOT                                     active',
].join('\r\n');
const STATUS_SLOTTED = [
  '# userid name uniqueid connected ping loss state rate adr',
  '#  7 1 "Slot Player" STEAM_1:1:1234 05:12 67 0 active 196608 198.51.100.4:27005',
  '#end',
].join('\n');

describe('gameb identities', () => {
  it('normalizes both SteamID forms to STEAM_0:Y:Z, the ban file form', () => {
    assert.equal(normalizeSteamId('[U:1:2469]'), 'STEAM_0:1:1234');
    assert.equal(normalizeSteamId('STEAM_1:1:1234'), 'STEAM_0:1:1234');
    assert.equal(normalizeSteamId(' STEAM_0:0:99 '), 'STEAM_0:0:99');
    assert.equal(normalizeSteamId('[U:1:198]'), 'STEAM_0:0:99');
    assert.equal(normalizeSteamId('U:1:0'), 'STEAM_0:0:0');
    for (const bad of ['', 'STEAM_0:2:1', 'STEAM_0:1:', '[U:1:x]', '76561197960265728', 'BOT', 'STEAM_0:1:1; quit']) {
      assert.equal(isSteamId(bad), false, bad);
    }
    const [steam, ip] = gameb.identities;
    assert.equal(steam.kind, 'STEAMID');
    assert.equal(steam.problem('[U:1:2469]'), null);
    assert.match(steam.problem('abc') ?? '', /SteamID/);
    assert.equal(ip.kind, 'IP');
    assert.equal(ip.address, true);
    assert.equal(ip.problem('1.2.3.4'), null);
    assert.notEqual(ip.problem('1.2.3.4:27005'), null);
    assert.notEqual(ip.problem('::1'), null);
  });
});

describe('gameb status', () => {
  it('reads a hostile answer in bounded time and rows: lines longer than a row, endless quotes, more rows than slots', () => {
    const row = (n: number) => `#      ${n} "P${n}"    STEAM_0:1:${n}  05:12   67    0 active 10.0.${n >> 8}.${n & 255}:27005`;
    const many = Array.from({ length: 2000 }, (_, i) => row(i + 1)).join('\n');
    assert.equal(parseStatus(many).length, 256);
    // Read at once: before the row cap, backtracking over this answer took longer than the test's time-out.
    const quotes = '# 1 "' + '" aaaa aaaa'.repeat(400_000) + '\rx\ry';
    assert.deepEqual(parseStatus(quotes), []);
  });

  it('reads players from the status table: names with spaces and quotes, bots, both SteamID forms', () => {
    assert.deepEqual<LivePlayer[]>(parseStatus(STATUS_STEAM2), [
      { slot_id: '2', name: 'Player One', ping: 67, id: { kind: 'STEAMID', value: 'STEAM_0:1:1234' }, ip: '1.2.3.4' },
      { slot_id: '3', name: 'Bob', ping: 0, id: null, ip: null },
      { slot_id: '4', name: 'He said "hi" ;)', ping: 120, id: { kind: 'STEAMID', value: 'STEAM_0:0:99' }, ip: '10.0.0.9' },
      { slot_id: '5', name: 'joining', ping: 0, id: null, ip: '10.0.0.10' },
    ]);
    assert.deepEqual<LivePlayer[]>(parseStatus(STATUS_STEAM3), [
      { slot_id: '12', name: 'Ünï Cødé', ping: 35, id: { kind: 'STEAMID', value: 'STEAM_0:1:1234' }, ip: '203.0.113.7' },
      { slot_id: '13', name: 'Medic', ping: 0, id: null, ip: null },
    ]);
    assert.deepEqual<LivePlayer[]>(parseStatus(STATUS_SLOTTED), [
      { slot_id: '7', name: 'Slot Player', ping: 67, id: { kind: 'STEAMID', value: 'STEAM_0:1:1234' }, ip: '198.51.100.4' },
    ]);
    assert.deepEqual(parseStatus(''), []);
    assert.deepEqual(parseStatus('# userid name uniqueid connected ping loss state adr\n'), []);
  });

  it('lists players, kicks, bans, unbans, says, stops and changes map in the game commands', async () => {
    const sent: string[] = [];
    const run = async (text: string) => {
      sent.push(text);
      return text === 'status' ? STATUS_STEAM3 : '';
    };
    assert.equal((await remote.listPlayers(run)).length, 2);
    await remote.kick(run, '12', 'bye; quit\n"now"');
    const permanent = { id: { kind: 'STEAMID', value: '[U:1:2469]' }, reason: 'x', expires_at: null };
    const timed = { id: { kind: 'STEAMID', value: 'STEAM_0:1:1234' }, reason: '', expires_at: new Date(Date.now() + 30 * 60_000 - 1000) };
    await remote.ban(run, permanent, [permanent]);
    // A timed ban beside a permanent one of the same player: the game keeps one ban per player, the permanent.
    await remote.ban(run, timed, [permanent, timed]);
    await remote.ban(run, { id: { kind: 'IP', value: '1.2.3.4' }, reason: '', expires_at: new Date(Date.now() + 90 * 60_000 - 1000) }, []);
    // The permanent one lifted while the timed one stays in the file: the game holds that one.
    await remote.unban(run, { kind: 'STEAMID', value: 'STEAM_0:1:1234' }, [timed]);
    await remote.unban(run, { kind: 'STEAMID', value: 'STEAM_0:1:1234' }, []);
    await remote.unban(run, { kind: 'IP', value: '1.2.3.4' }, []);
    await remote.say(run, 'restart in 5; quit');
    await remote.shutdown(run);
    await remote.playMission(run, 'de_inferno', {});
    assert.deepEqual(sent, [
      'status',
      "kickid 12 bye, quit 'now'",
      // Each SteamID in both universe forms: the game compares the digit it prints.
      'banid 0 STEAM_0:1:1234',
      'banid 0 STEAM_1:1:1234',
      'banid 0 STEAM_0:1:1234',
      'banid 0 STEAM_1:1:1234',
      'addip 90 1.2.3.4',
      'banid 30 STEAM_0:1:1234',
      'banid 30 STEAM_1:1:1234',
      'removeid STEAM_0:1:1234',
      'removeid STEAM_1:1:1234',
      'removeip 1.2.3.4',
      'say restart in 5, quit',
      'quit',
      'changelevel de_inferno',
    ]);
    await assert.rejects(remote.kick(run, '1; quit', ''), (e: unknown) => e instanceof ApiError && e.code === 'VALIDATION_ERROR');
    await assert.rejects(
      remote.ban(run, { id: { kind: 'IP', value: '1.2.3.4; quit' }, reason: '', expires_at: null }),
      (e: unknown) => e instanceof ApiError && e.code === 'VALIDATION_ERROR',
    );
    await assert.rejects(remote.playMission(run, 'de dust', {}), (e: unknown) => e instanceof ApiError && e.code === 'ADAPTER_ERROR');
  });

  it('checks changelevel, masks passwords in the audit trail, and offers its commands', () => {
    assert.equal(remote.commandProblem('changelevel de_dust2'), null);
    assert.match(remote.commandProblem('changelevel ../secret') ?? '', /path separator/);
    assert.match(remote.commandProblem('changelevel de dust') ?? '', /usage/);
    assert.equal(remote.commandProblem('status'), null);
    // However it is written, a new RCON password would lock Garrison out until a restart.
    for (const typed of ['rcon_password x', '"rcon_password"NewPass', 'echo hi;RCON_PASSWORD x', 'alias a "rcon_password x"'])
      assert.match(remote.commandProblem(typed) ?? '', /server config/, typed);
    assert.equal(remote.redactCommand('rcon_password hunter2'), 'rcon_password ***');
    assert.equal(remote.redactCommand('  sv_password "a b"'), '  sv_password ***');
    assert.equal(remote.redactCommand('say my password'), 'say my password');
    for (const [typed, kept] of [
      ['echo hi; rcon_password hunter2; status', 'echo hi; rcon_password ***'],
      ['"rcon_password" NewSecret1', '"rcon_password" ***'],
      ['alias x "rcon_password NewSecret2"; x', 'alias x "rcon_password ***'],
      ['rcon_password "ab;cd"', 'rcon_password ***'],
      ['echo x\nRCON_PASSWORD NEW', 'echo x\nRCON_PASSWORD ***'],
    ]) {
      assert.equal(remote.redactCommand(typed), kept, typed);
    }
    assert.ok(remote.knownCommands.includes('changelevel <map>'));
    assert.ok(remote.knownCommands.includes('kickid <userid> [reason]'));
    assert.ok(!remote.knownCommands.some((c) => c.startsWith('rcon_password')));
  });
});

describe('gameb ban lines', () => {
  const bans = gameb.capabilities.ban_manager;
  const readAt = new Date('2026-11-27T12:00:00Z');

  it('reads the lines writeid and writeip write, in their spellings', () => {
    assert.deepEqual(parseBanLine('banid 0 STEAM_0:1:1234', readAt), {
      id: { kind: 'STEAMID', value: 'STEAM_0:1:1234' },
      reason: '',
      expires_at: null,
      key: 'STEAMID STEAM_0:1:1234 0',
    });
    for (const line of [
      'banid 0.0 STEAM_0:1:1234',
      '  banid   0   [U:1:2469]  ',
      'banid 0 STEAM_1:1:1234 // griefing',
      'BANID 0 STEAM_0:1:1234\r',
    ]) {
      assert.equal(parseBanLine(line, readAt)?.key, 'STEAMID STEAM_0:1:1234 0', line);
    }
    const ip = parseBanLine('addip 0.0 1.2.3.4', readAt);
    assert.deepEqual(ip?.id, { kind: 'IP', value: '1.2.3.4' });
    assert.equal(ip?.expires_at, null);
    const timed = parseBanLine('addip 30 10.0.0.5', readAt);
    assert.equal(timed?.expires_at?.toISOString(), '2026-11-27T12:30:00.000Z');
    assert.equal(parseBanLine('addip 30 10.0.0.5', new Date())?.key, timed?.key, 'the key does not depend on the read time');
  });

  it('returns null for every line that is not a ban', () => {
    for (const line of [
      '',
      '// banned by admin',
      'exec banned_ip.cfg',
      'banid',
      'banid 0',
      'banid x STEAM_0:1:1',
      'banid 0 BOT',
      'addip 0 1.2.3',
      'addip 0 STEAM_0:1:1',
      'sv_cheats 0',
      'removeid STEAM_0:1:1234',
    ]) {
      assert.equal(parseBanLine(line, readAt), null, line);
    }
  });

  it('writes bans as the game writes them, read back with a stable key', () => {
    const cases = [
      { id: { kind: 'STEAMID', value: '[U:1:2469]' }, reason: 'cheating', expires_at: null },
      { id: { kind: 'IP', value: '203.0.113.7' }, reason: '', expires_at: null },
      { id: { kind: 'STEAMID', value: 'STEAM_0:0:5' }, reason: '', expires_at: new Date(Date.now() + 60 * 60_000) },
    ];
    assert.equal(bans.formatBanLine(cases[0]), 'banid 0 STEAM_0:1:1234;banid 0 STEAM_1:1:1234');
    assert.equal(bans.formatBanLine(cases[1]), 'addip 0 203.0.113.7');
    assert.equal(bans.formatBanLine(cases[2]), 'banid 60 STEAM_0:0:5;banid 60 STEAM_1:0:5');
    // The game's own `writeid` line of the same ban, in either universe, has the same key.
    const key = bans.parseBanLine(bans.formatBanLine(cases[0]), readAt)!.key;
    assert.equal(bans.parseBanLine('banid 0 STEAM_1:1:1234', readAt)!.key, key);
    assert.equal(bans.parseBanLine('banid 0.0 STEAM_0:1:1234 // old', readAt)!.key, key);
    // Statements of different bans, or a ban and another command, make no ban line: it stays as it is.
    assert.equal(bans.parseBanLine('banid 0 STEAM_0:1:1234;banid 0 STEAM_0:1:1', readAt), null);
    assert.equal(bans.parseBanLine('banid 0 STEAM_0:1:1234;banid 5 STEAM_1:1:1234', readAt), null);
    assert.equal(bans.parseBanLine('banid 0 STEAM_0:1:1234; quit', readAt), null);
    for (const ban of cases) {
      const line = bans.formatBanLine(ban);
      const read = bans.parseBanLine(line, readAt)!;
      assert.equal(read.id.value, gameb.identities.find((k) => k.kind === ban.id.kind)!.normalize(ban.id.value));
      assert.equal(bans.parseBanLine(line, new Date())!.key, read.key);
      assert.equal(bans.parseBanLine(bans.formatBanLine(read), readAt)!.key.split(' ')[1], read.key.split(' ')[1]);
    }
  });
});

describe('gameb logs', () => {
  const logs = gameb.capabilities.log_parser;

  it('reads the time, the message and a level from each line', () => {
    const line = 'L 11/27/2026 - 02:07:19: "Name<2><STEAM_0:1:1234><>" connected, address "1.2.3.4:27005"';
    assert.deepEqual(parseLogLine(line), {
      level: 'info',
      message: '"Name<2><STEAM_0:1:1234><>" connected, address "1.2.3.4:27005"',
      timestamp: new Date(2026, 10, 27, 2, 7, 19),
    });
    assert.equal(parseLogLine('L 11/27/2026 - 02:07:20: Error: Material "x" not found')?.level, 'error');
    assert.equal(parseLogLine('L 11/27/2026 - 02:07:20: Host_Error: map load failed')?.level, 'error');
    assert.equal(parseLogLine('L 11/27/2026 - 02:07:21: WARNING: late packet')?.level, 'warning');
    // What a player says is his, not the server's: a chat line about an error is info.
    assert.equal(parseLogLine('L 11/27/2026 - 02:07:22: "Bob<3><STEAM_0:0:9><>" say "error everywhere"')?.level, 'info');
    assert.deepEqual(parseLogLine('Console initialized.'), { level: 'info', message: 'Console initialized.' });
    assert.equal(parseLogLine('L 13/45/2026 - 02:07:19: odd date')?.timestamp, undefined);
    assert.equal(parseLogLine(''), null);
    assert.equal(parseLogLine('L 11/27/2026 - 02:07:19: '), null);
  });

  it('keeps only the first word of an RCON command the game logged: its arguments may set a password', () => {
    const logged = (command: string) => parseLogLine(`L 11/27/2026 - 02:07:19: rcon from "127.0.0.1:53012": command "${command}"`)?.message;
    assert.equal(logged('rcon_password NewPw1'), 'rcon from "127.0.0.1:53012": command "rcon_password …"');
    assert.equal(logged('echo x; sv_password nightpw'), 'rcon from "127.0.0.1:53012": command "echo …"');
    assert.equal(logged('status'), 'rcon from "127.0.0.1:53012": command "status …"');
    assert.doesNotMatch(logged('"rcon_password" Secret9') ?? '', /Secret9/);
  });

  it('names its log files and the map the game loads', () => {
    assert.ok(logs.isLogFile('L1127000.log'));
    assert.ok(logs.isLogFile('l0101012.LOG'));
    for (const name of ['L112700.log', 'L1127000.txt', 'console.log', 'L1127000.log.bak']) assert.equal(logs.isLogFile(name), false, name);
    assert.equal(missionOf('Started map "de_dust2" (CRC "-1234")'), 'de_dust2');
    assert.equal(missionOf('Loading map "cp_badlands"'), 'cp_badlands');
    assert.equal(missionOf('"Bob<3><BOT><>" say "Started map"'), null);
  });
});

describe('gameb maps', () => {
  const missions = gameb.capabilities.mission_manager;
  it('reads map file names and refuses what the game would not load', () => {
    assert.deepEqual(missions.parseMissionFilename('de_dust2.bsp'), { name: 'de_dust2', parts: {} });
    assert.deepEqual(missions.parseMissionFilename('ze_FFVII_Mako_v5.3.BSP'), { name: 'ze_FFVII_Mako_v5.3', parts: {} });
    // A leading - or + would be a switch or a command on the game's command line (`+map -insecure`).
    for (const bad of [
      '',
      '.bsp',
      'de dust.bsp',
      '../x.bsp',
      'a\\b.bsp',
      'readme.txt',
      'map.bspx',
      'de_"x".bsp',
      '-insecure.bsp',
      '+quit.bsp',
    ]) {
      assert.throws(
        () => missions.parseMissionFilename(bad),
        (e: unknown) => e instanceof ApiError && e.code === 'ADAPTER_ERROR',
        bad,
      );
    }
    assert.deepEqual(missions.rotationOptions.normalize({}), {});
    assert.equal(typeof missions.rotationOptions.normalize({ difficulty: 'Veteran' }), 'string');
    assert.equal(missions.missionLabel, 'Map');
  });
});
