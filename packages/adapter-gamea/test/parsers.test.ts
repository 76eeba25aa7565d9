import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '@garrison/core';
import gamea, { parseLogLine, parsePlayers } from '../src/index.js';

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
      '(4 players in total)',
    ].join('\n');
    assert.deepEqual(parsePlayers(answer), [
      { slot_id: '0', name: 'Bravo17', ping: 63, guid: '80a5885ebe2420bab5e1581234567890' },
      { slot_id: '1', name: 'Some Name', ping: 0, guid: '80a5885ebe2420bab5e1581234567891' },
      { slot_id: '12', name: 'babasss', ping: -1, guid: null },
      { slot_id: '8', name: 'Max', ping: -1, guid: '73c5e50a7860475f0000000000000000' },
    ]);
    assert.deepEqual(parsePlayers('Players on server:\n(0 players in total)'), []);
  });

  it('reads log lines with and without time stamps', () => {
    assert.deepEqual(parseLogLine('11:19:02 Dedicated host created.'), { level: 'info', message: 'Dedicated host created.' });
    assert.deepEqual(parseLogLine(' 9:01:02 Warning: no entry bin\\config.bin'), { level: 'warning', message: 'Warning: no entry bin\\config.bin' });
    assert.deepEqual(parseLogLine('2022/11/13, 11:52:52 Error in expression <x>'), { level: 'error', message: 'Error in expression <x>' });
    assert.deepEqual(parseLogLine('Game started.'), { level: 'info', message: 'Game started.' });
    assert.equal(parseLogLine('   '), null);
  });

  it('splits mission file names into name and terrain', () => {
    const parse = gamea.capabilities.mission_manager.parseMissionFilename;
    assert.deepEqual(parse('co10_Escape.Altis.pbo'), { name: 'co10_Escape.Altis', terrain: 'Altis' });
    assert.deepEqual(parse('My.Mission.v2.Tanoa.pbo'), { name: 'My.Mission.v2.Tanoa', terrain: 'Tanoa' });
    for (const bad of ['escape.pbo', 'co10_Escape.Altis.zip', '.Altis.pbo', 'x..pbo']) {
      assert.throws(() => parse(bad), (err: unknown) => err instanceof ApiError && err.code === 'ADAPTER_ERROR', bad);
    }
  });

  it('writes BattlEye ban lines with absolute expiry', () => {
    const text = gamea.capabilities.ban_manager.renderBanFile([
      { guid: '80a5885ebe2420bab5e1581234567890', reason: 'Cheating', expires_at: null },
      { guid: '1.2.3.4', reason: 'spam\nmore', expires_at: new Date(1_700_000_000_000) },
    ]);
    assert.equal(text, '80a5885ebe2420bab5e1581234567890 -1 Cheating\n1.2.3.4 1700000000 spam more\n');
  });
});
