import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '@garrison/core';
import gamea, { logReader, parseLogLine, parsePlayers } from '../src/index.js';

describe('gamea parsers', () => {
  it('reads the players answer, including joining and lobby players', () => {
    const answer = [
      'Players on server:',
      '[#] [IP Address]:[Port] [Ping] [GUID] [Name]',
      '-'.repeat(50),
      '0   76.108.91.78:2304     63   80a5885ebe2420bab5e1581234567890(OK) Bravo17',
      '1   192.168.0.100:2316    0    80a5885ebe2420bab5e1581234567891(OK) Some Name (Lobby)',
      '12  90.0.216.144:2304     -1   - babasss (Lobby)',
      '8   111.222.200.50:2304   -1   73c5e50a7860475f0000000000000000(?)  Max',
      '3   [2001:db8::7]:2304    40   80a5885ebe2420bab5e1581234567892(OK) Six',
      '(5 players in total)',
    ].join('\n');
    assert.deepEqual(parsePlayers(answer), [
      { slot_id: '0', name: 'Bravo17', ping: 63, id: { kind: 'GUID', value: '80a5885ebe2420bab5e1581234567890' }, ip: '76.108.91.78' },
      { slot_id: '1', name: 'Some Name', ping: 0, id: { kind: 'GUID', value: '80a5885ebe2420bab5e1581234567891' }, ip: '192.168.0.100' },
      { slot_id: '12', name: 'babasss', ping: -1, id: null, ip: '90.0.216.144' },
      { slot_id: '8', name: 'Max', ping: -1, id: { kind: 'GUID', value: '73c5e50a7860475f0000000000000000' }, ip: '111.222.200.50' },
      { slot_id: '3', name: 'Six', ping: 40, id: { kind: 'GUID', value: '80a5885ebe2420bab5e1581234567892' }, ip: '2001:db8::7' },
    ]);
    assert.deepEqual(parsePlayers('Players on server:\n(0 players in total)'), []);
  });

  it('reads log lines with and without time stamps', () => {
    assert.deepEqual(parseLogLine('11:19:02 Dedicated host created.'), { level: 'info', message: 'Dedicated host created.' });
    assert.deepEqual(parseLogLine(' 9:01:02 Warning: no entry bin\\config.bin'), {
      level: 'warning',
      message: 'Warning: no entry bin\\config.bin',
    });
    assert.deepEqual(parseLogLine('2022/11/13, 11:52:52 Error in expression <x>'), {
      level: 'error',
      message: 'Error in expression <x>',
      timestamp: new Date(2022, 10, 13, 11, 52, 52),
    });
    assert.deepEqual(parseLogLine('Game started.'), { level: 'info', message: 'Game started.' });
    assert.equal(parseLogLine('   '), null);
  });

  it('finds the level where real RPT lines put it', () => {
    const cases: [string, string][] = [
      [' 3:45:44 Error in expression <if (_x > 0) then {>', 'error'],
      [' 3:45:44   Error position: <_x > 0) then {>', 'error'],
      [' 3:45:44   Error Undefined variable in expression: _x', 'error'],
      ['17:24:02   Error Zero divisor', 'error'],
      ["17:24:02 ErrorMessage: File mpmissions\\__cur_mp.Altis\\description.ext, line 61: '/Header.gameType': Missing ';'", 'error'],
      ['17:24:02 Sound: Error: sound not found: \\a3\\sounds_f\\dummy.wss', 'error'],
      ['17:24:02 [CBA] (xeh) ERROR: Something broke', 'error'],
      ['17:24:02 [CBA] (xeh) WARNING: Extended_InitPost_EventHandlers is missing', 'warning'],
      ["17:24:02 Warning Message: No entry 'bin\\config.bin/CfgVehicles.scope'.", 'warning'],
      ['17:24:02 Warning Message: Error in expression further on', 'warning'],
      ['17:24:02 Debug: world loaded', 'debug'],
      ['17:24:02 Player Error (76.108.91.78:2304) connected', 'info'],
      ['17:24:02 Errors: none; Warnings disabled', 'info'],
    ];
    for (const [line, level] of cases) assert.equal(parseLogLine(line)?.level, level, line);
    assert.equal(parseLogLine(' 3:45:44   Error position: <_x>')?.message, '  Error position: <_x>', 'the indentation is the text');
    assert.equal(parseLogLine('17:24:02 trailing spaces kept   ')?.message, 'trailing spaces kept   ');
    assert.equal(parseLogLine('2021/13/45, 11:11:19 not a date')?.timestamp, undefined, 'an impossible date leaves the read time');
  });

  it('gives a line without a time the level and time of the entry above it, and reads a log without times line by line', () => {
    const read = logReader();
    const lines = [
      '=====================================================================',
      'Warning: a header line stands alone',
      '2021/09/29, 11:11:19 Error in expression <call compile preprocessFileLineNumbers "x.sqf";>',
      '2021/09/29, 11:11:19   Error position: <call compile>',
      'File \\x\\cba\\addons\\xeh\\fnc_init.sqf [CBA_fnc_init]..., line 3',
      '<?xml version="1.0"?><config/>',
      '17:24:03 Mission read.',
      'Arma 3 Console version 2.08.148892 x64 : port 2302',
      '',
      '17:24:04 Warning Message: texture missing',
      '  <texture name="x"/>',
    ];
    const read_ = lines.map((l) => read(l));
    assert.deepEqual(
      read_.map((e) => e?.level ?? null),
      ['info', 'warning', 'error', 'error', 'error', 'error', 'info', 'info', null, 'warning', 'warning'],
    );
    assert.deepEqual(read_[4]?.timestamp, new Date(2021, 8, 29, 11, 11, 19), "a continuation keeps its entry's time");
    assert.equal(read_[7]?.timestamp, undefined);
    assert.equal(read_[10]?.message, '  <texture name="x"/>');
    const plain = logReader();
    assert.deepEqual(
      ['Game started.', 'Warning: none of these lines has a time', 'Игрок Иван: привет 👋'].map((l) => plain(l)?.level),
      ['info', 'warning', 'info'],
    );
  });

  it('splits mission file names into name and terrain', () => {
    const parse = gamea.capabilities.mission_manager.parseMissionFilename;
    assert.deepEqual(parse('co10_Escape.Altis.pbo'), { name: 'co10_Escape.Altis', parts: { terrain: 'Altis' } });
    assert.deepEqual(parse('My.Mission.v2.Tanoa.pbo'), { name: 'My.Mission.v2.Tanoa', parts: { terrain: 'Tanoa' } });
    for (const bad of ['escape.pbo', 'co10_Escape.Altis.zip', '.Altis.pbo', 'x..pbo']) {
      assert.throws(
        () => parse(bad),
        (err: unknown) => err instanceof ApiError && err.code === 'ADAPTER_ERROR',
        bad,
      );
    }
  });

  it('writes BattlEye ban lines with absolute expiry, on one line', () => {
    const { formatBanLine } = gamea.capabilities.ban_manager;
    assert.equal(
      formatBanLine({ id: { kind: 'GUID', value: '80a5885ebe2420bab5e1581234567890' }, reason: 'Cheating', expires_at: null }),
      '80a5885ebe2420bab5e1581234567890 -1 Cheating',
    );
    assert.equal(
      formatBanLine({ id: { kind: 'IP', value: '1.2.3.4' }, reason: 'spam\nmore', expires_at: new Date(1_700_000_000_000) }),
      '1.2.3.4 1700000000 spam more',
    );
    assert.equal(formatBanLine({ id: { kind: 'IP', value: '1.2.3.4' }, reason: '', expires_at: null }), '1.2.3.4 -1');
  });

  it('reads ban lines in the forms real files have, and refuses what is not a ban', () => {
    const { parseBanLine } = gamea.capabilities.ban_manager;
    const readAt = new Date('2026-03-01T12:00:00Z');
    const read = (line: string) => parseBanLine(line, readAt);
    const guid = '2918dd2ed4d7b73c0b3201cd97f4c978';
    assert.deepEqual(read(`${guid} -1 BEC : GameHack #38`), {
      id: { kind: 'GUID', value: guid },
      reason: 'BEC : GameHack #38',
      expires_at: null,
      key: `${guid} -1 BEC : GameHack #38`,
    });
    assert.equal(read('203.214.77.31 -1 hacker')?.id.kind, 'IP');
    assert.equal(
      read('2bb2d777e54bb186dded17bca3cb4cde 1722607499 [PL] Admin Ban')?.expires_at?.toISOString(),
      new Date(1_722_607_499_000).toISOString(),
    );
    // A small number is minutes, counted from when the line is read; the key keeps the number as written.
    const minutes = read(`${guid} 90 toxic`)!;
    assert.equal(minutes.expires_at?.getTime(), readAt.getTime() + 90 * 60_000);
    assert.equal(parseBanLine(`${guid} 90 toxic`, new Date())?.key, minutes.key);
    for (const permanent of [`${guid}`, `${guid} 0 x`, `${guid} -5 x`, `${guid} reason without time`])
      assert.equal(read(permanent)?.expires_at, null, permanent);
    assert.equal(read(`${guid} reason without time`)?.reason, 'reason without time');
    assert.equal(read(`${guid.toUpperCase()}   -1    spaced   out  `)?.reason, 'spaced   out');
    assert.equal(
      read(`${guid.toUpperCase()}   -1    spaced   out  `)?.key,
      read(`${guid} -1 spaced out`)?.key,
      'the same ban in other spacing',
    );
    assert.equal(read(`${guid} -1 Читер, 作弊者 🚫`)?.reason, 'Читер, 作弊者 🚫');
    assert.equal(read('abc123def4567890 -1 short id')?.id.value, 'abc123def4567890');
    assert.equal(read('192.168.*.* -1 range')?.id.kind, 'IP');
    assert.equal(read('2001:db8::1 -1 six')?.id.kind, 'IP');
    for (const other of [
      '',
      '   ',
      '##Bans##',
      '// banned by hand',
      '# note',
      '; old',
      'hello world',
      'not-a-guid -1 x',
      'zz'.repeat(20),
    ]) {
      assert.equal(read(other), null, JSON.stringify(other));
    }
  });
});

describe('gamea: the mission the log says is played', () => {
  const missionOf = gamea.capabilities.log_parser.missionOf;
  it('reads "read from bank" and the mission file line, and nothing else', () => {
    assert.equal(missionOf('Mission co10_Escape.Altis read from bank.'), 'co10_Escape.Altis');
    assert.equal(missionOf(' Mission file: becti_current (__cur_mp)'), 'becti_current');
    assert.equal(missionOf('Mission world: Altis'), null);
    assert.equal(missionOf('Starting mission:'), null);
    assert.equal(missionOf('Player Mission read from bank. joined'), null);
  });
});
