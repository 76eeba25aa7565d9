import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BattlEyeClient } from '@garrison/battleye';
import { parsePlayers } from '@garrison/adapter-gamea';
import { bansText, FakeRconServer, playersText, waitFor } from '../src/index.js';

const G = (c: string) => c.repeat(32);

describe('FakeRconServer standard commands', () => {
  let server: FakeRconServer;
  let client: BattlEyeClient;
  const got: string[] = [];
  before(async () => {
    server = await FakeRconServer.start({ password: 'Pw1' });
    client = await BattlEyeClient.connect({ host: '127.0.0.1', port: server.port, password: 'Pw1', resendMs: 100 });
    client.onMessage((m) => got.push(m));
  });
  after(async () => {
    await client.close();
    await server.close();
  });
  const message = (predicate: (m: string) => boolean, what: string) => waitFor(() => got.find(predicate), { what });

  it('greets a login with the admin message and lists admins', async () => {
    await message((m) => m.includes('logged in'), 'the login message');
    assert.match(got[0], /^RCon admin #0 \(127\.0\.0\.1:\d+\) logged in$/);
    assert.match(await client.command('admins'), /^Connected RCon admins:\n\[#\] \[IP Address\]:\[Port\]\n-{29}\n0 127\.0\.0\.1:\d+$/);
  });

  it('kicks a player with the BattlEye kick message', async () => {
    const p = server.join('Kicky', G('a'), '10.0.0.1');
    assert.equal(await client.command(`kick ${p.slot} AFK too long`), '');
    await message(
      (m) => m === `Player #${p.slot} Kicky (${G('a')}) has been kicked by BattlEye: Admin Kick (AFK too long)`,
      'the kick message',
    );
    assert.equal(parsePlayers(await client.command('players')).length, 0);
    assert.match(await client.command('kick 99'), /^Error: Invalid player number 99$/);
  });

  it('bans online and offline players, lists them in the real layout, and removes them by index', async () => {
    const p = server.join('Banny', G('b'), '10.0.0.2');
    await client.command(`ban ${p.slot} 0 Cheating`);
    await client.command(`addBan ${G('c')} 90 Toxic chat`);
    await client.command('addBan 1.2.3.4 0 Spam bot');
    await message((m) => m === `Player #${p.slot} Banny (${G('b')}) has been kicked by BattlEye: Admin Ban (Cheating)`, 'the ban message');
    const bans = await client.command('bans');
    assert.deepEqual(bans.split('\n').slice(0, 3), ['GUID Bans:', '[#] [GUID] [Minutes left] [Reason]', '-'.repeat(40)]);
    assert.match(bans, new RegExp(`^0  ${G('b')} perm Cheating$`, 'm'));
    assert.match(bans, new RegExp(`^1  ${G('c')} (90|89) Toxic chat$`, 'm'));
    assert.match(bans, /\n\nIP Bans:\n\[#\] \[IP Address\] \[Minutes left\] \[Reason\]\n-{46}\n2 {2}1\.2\.3\.4 +perm Spam bot$/);
    await client.command('removeBan 1');
    assert.deepEqual(
      server.bans.map((b) => b.id),
      [G('b'), '1.2.3.4'],
    );
    assert.match(await client.command('removeBan 7'), /^Error: Invalid ban number 7$/);
  });

  it('formats the players list as real servers do, joining and lobby players included', () => {
    const text = playersText([
      { slot: 0, name: 'Bravo17', guid: G('8'), ip: '76.108.91.78', port: 2304, ping: 63, verified: true, lobby: false },
      { slot: 12, name: 'babasss', guid: null, ip: '90.0.216.144', port: 2304, ping: -1, verified: false, lobby: true },
      { slot: 8, name: 'Max', guid: G('7'), ip: '111.222.200.50', port: 2304, ping: -1, verified: false, lobby: true },
    ]);
    assert.equal(
      text,
      [
        'Players on server:',
        '[#] [IP Address]:[Port] [Ping] [GUID] [Name]',
        '-'.repeat(50),
        `0   76.108.91.78:2304     63   ${G('8')}(OK) Bravo17`,
        '12  90.0.216.144:2304     -1   - babasss (Lobby)',
        `8   111.222.200.50:2304   -1   ${G('7')}(?)  Max (Lobby)`,
        '(3 players in total)',
      ].join('\n'),
    );
  });

  it('shows expired bans with a dash until writeBans removes them', () => {
    const now = 1_700_000_000;
    assert.match(
      bansText([{ id: G('d'), kind: 'GUID', expiresAt: now - 60, reason: 'old' }], now),
      new RegExp(`^0  ${G('d')} - old$`, 'm'),
    );
  });
});
