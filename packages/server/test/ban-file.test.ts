import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { connectRcon, installFakeGameaTemp, waitFor } from '@garrison/testkit';
import { FakeClock } from '@garrison/server';
import { startHarness, type Harness } from './helpers.js';
import { FAST_SUPERVISION, advanceUntil, createGameServer, killGames, runningGameServer, type FakeInstall } from './games.js';

const guid = (n: number) => createHash('md5').update(`player ${n}`).digest('hex');
const FUTURE = 2_079_632_454; // 2035
const PAST = 1_722_607_499; // 2024

interface Fixture {
  /** Each line's bytes without its break. */
  lines: Buffer[];
  eol: string;
  /** Whether the last line ends with a break. */
  finalBreak: boolean;
  /** Distinct ban lines (text), and which of them are in force. */
  bans: string[];
  inForce: string[];
}

/**
 * A ban list of several hundred lines in the forms real servers have: BattlEye's own lines, IP bans,
 * absolute and past expiries, minutes, bare ids, empty and non-ASCII reasons, odd spacing, ids of unusual
 * length, duplicates, comments and headers, lines no parser reads, and bytes that are not UTF-8.
 */
function realBanList(eol: string, finalBreak: boolean): Fixture {
  const text: string[] = ['##Bans##', '// moved from the old box by hand, 2023', ''];
  const bans: string[] = [];
  const expired: string[] = [];
  const latin1: Buffer[] = [];
  for (let n = 0; n < 300; n += 1) {
    const g = guid(n);
    const line = [
      `${g} -1 BEC : GameHack #${n}`,
      `203.0.${n >> 8}.${n & 255} -1 hacker`,
      `${g} ${FUTURE + n} [Admin][18.07.15 13:38:14] Sabotage`,
      `${g} ${PAST} [PL] expired long ago`,
      `${g} 1440 one day, written as minutes`,
      g,
      `${g} -1`,
      `${g} -1 Читер №${n}, 作弊者 🚫`,
      n % 20 === 8 ? `${g}${guid(n + 1)} -1 a long id` : `${g.slice(0, 16)} -1 short id`,
      `${g}   -1   odd   spacing  `,
    ][n % 10];
    text.push(line);
    bans.push(line);
    if (n % 10 === 3) expired.push(line);
    if (n % 50 === 49) text.push(line); // a tool added the same ban twice
    if (n % 40 === 0) text.push('this line is no ban at all', '');
  }
  const lines = text.map((l) => Buffer.from(l, 'utf8'));
  // A reason written in Latin-1 by an old tool: not UTF-8, and kept byte for byte all the same.
  const latin = Buffer.concat([Buffer.from(`${guid(999)} -1 Spieler `), Buffer.from([0xe4]), Buffer.from('rgert')]);
  lines.splice(10, 0, latin);
  latin1.push(latin);
  bans.push(latin.toString('utf8'));
  return { lines, eol, finalBreak, bans, inForce: bans.filter((b) => !expired.includes(b)) };
}

const bytesOf = (f: Pick<Fixture, 'lines' | 'eol' | 'finalBreak'>) =>
  Buffer.concat(f.lines.flatMap((l, i) => (i < f.lines.length - 1 || f.finalBreak ? [l, Buffer.from(f.eol)] : [l])));

const banFile = (h: Harness, id: number) => join(h.dataDir, 'servers', String(id), 'battleye', 'bans.txt');
const bansOf = async (h: Harness, id: number, query = '') =>
  (await h.api('GET', `/servers/${id}/bans?limit=500${query}`, { token: h.viewerToken })).body.data as {
    id: number;
    guid: string;
    reason: string;
    source: string;
    banned_by: string;
    ban_type: string;
    expires_at: string | null;
  }[];

describe('the shared ban file, kept line for line (on a fake clock)', () => {
  let h: Harness;
  let fake: FakeInstall;
  const clock = new FakeClock();
  const PASS_MS = 15_000;
  before(async () => {
    fake = await installFakeGameaTemp();
    h = await startHarness({ ...FAST_SUPERVISION, clock, banExpiryCheckMs: PASS_MS });
  });
  after(async () => {
    await h.close();
    await fake.remove();
  });
  const bans = bansOf;

  for (const [eol, finalBreak, label] of [
    ['\r\n', true, 'CRLF'],
    ['\n', false, 'LF, no break after the last line'],
  ] as const) {
    it(`keeps every line it did not write through create, revoke, expiry and a restart (${label})`, async () => {
      const s = await createGameServer(h, fake);
      const fixture = realBanList(eol, finalBreak);
      await mkdir(join(h.dataDir, 'servers', String(s.id), 'battleye'), { recursive: true });
      await writeFile(banFile(h, s.id), bytesOf(fixture));

      // Read and imported: the bans in force are listed, each once, as the file's. (A last line without a
      // break is taken once the file has been left alone for a moment: it may be a line still being written.)
      const listed = await waitFor(
        async () => {
          const now = await bans(h, s.id);
          return now.length === fixture.inForce.length && now;
        },
        { what: 'every ban of the file imported' },
      );
      assert.ok(listed.every((b) => b.source === 'file' && b.banned_by === 'bans.txt'));
      const russian = listed.find((b) => b.guid === guid(7))!;
      assert.equal(russian.reason, 'Читер №7, 作弊者 🚫');
      assert.equal(listed.find((b) => b.guid === guid(2))!.expires_at, new Date((FUTURE + 2) * 1000).toISOString());
      assert.equal(listed.filter((b) => b.ban_type === 'IP').length, 30);
      assert.equal((await bans(h, s.id, '&active_only=false')).length, fixture.bans.length, 'expired entries are known too');
      assert.deepEqual(await readFile(banFile(h, s.id)), bytesOf(fixture), 'reading changed nothing');

      // Garrison's own ban: exactly one line added, in the file's line break.
      const mine = (
        await h.api('POST', `/servers/${s.id}/bans`, { token: h.adminToken, body: { player_uid: 'f'.repeat(32), reason: 'mine' } })
      ).body.data;
      const mineLine = Buffer.from(`${'f'.repeat(32)} -1 mine`);
      const withMine = { ...fixture, lines: [...fixture.lines, mineLine], finalBreak: true };
      assert.deepEqual(await readFile(banFile(h, s.id)), bytesOf(withMine));

      // Revoking a ban the file had (written twice) takes out its lines, and only those.
      const twice = `${guid(49)}   -1   odd   spacing  `;
      const doubled = listed.find((b) => b.guid === guid(49))!;
      assert.equal((await h.api('DELETE', `/servers/${s.id}/bans/${doubled.id}`, { token: h.adminToken })).status, 200);
      const withoutTwice = { ...withMine, lines: withMine.lines.filter((l) => l.toString('utf8') !== twice) };
      assert.equal(withoutTwice.lines.length, withMine.lines.length - 2);
      assert.deepEqual(await readFile(banFile(h, s.id)), bytesOf(withoutTwice));

      // Garrison's timed ban runs out: its line goes, the rest stays.
      const timed = (
        await h.api('POST', `/servers/${s.id}/bans`, {
          token: h.adminToken,
          body: { player_uid: '10.9.8.7', ban_type: 'IP', duration_minutes: 60 },
        })
      ).body.data;
      await clock.advance(60 * 60_000);
      await advanceUntil(
        clock,
        async () => !(await readFile(banFile(h, s.id), 'utf8')).includes('10.9.8.7'),
        'the expired ban to leave the file',
        PASS_MS,
      );
      assert.deepEqual(await readFile(banFile(h, s.id)), bytesOf(withoutTwice));
      assert.ok(!(await bans(h, s.id)).some((b) => b.id === timed.id));
      assert.ok((await bans(h, s.id)).some((b) => b.id === mine.id));

      // The service again on the same data: nothing imported twice, nothing rewritten.
      const before = (await bans(h, s.id, '&active_only=false')).length;
      await h.server.close(); // one service per data dir: the next one starts once this one is gone
      const first = h;
      const second = await startHarness({
        ...FAST_SUPERVISION,
        clock,
        banExpiryCheckMs: PASS_MS,
        dataDir: h.dataDir,
        databaseUrl: h.databaseUrl,
      });
      // The later tests go on with the second; closing it cleans up what the first made too.
      h = { ...second, close: () => second.close().then(() => first.close()) };
      assert.equal((await bans(second, s.id, '&active_only=false')).length, before);
      assert.deepEqual(await readFile(banFile(second, s.id)), bytesOf(withoutTwice));
    });
  }

  it('takes a ban that someone else removed from the file for revoked, and imports what a tool appended', async () => {
    const s = await createGameServer(h, fake);
    const api = (await h.api('POST', `/servers/${s.id}/bans`, { token: h.adminToken, body: { player_uid: 'a'.repeat(32), reason: 'api' } }))
      .body.data;
    await appendFile(banFile(h, s.id), `${'b'.repeat(32)} -1 appended by a tool\n`);
    const listed = await bans(h, s.id);
    assert.deepEqual(
      listed.map((b) => [b.guid, b.source]),
      [
        ['a'.repeat(32), 'api'],
        ['b'.repeat(32), 'file'],
      ],
    );
    await writeFile(banFile(h, s.id), `${'b'.repeat(32)} -1 appended by a tool\n`); // someone took the API's ban out by hand
    // Concluded once the file has been left alone a moment (it might have been read half-written).
    await advanceUntil(clock, async () => (await bans(h, s.id)).length === 1, 'the ban taken out by hand to end', PASS_MS);
    assert.deepEqual(
      (await bans(h, s.id)).map((b) => b.guid),
      ['b'.repeat(32)],
    );
    assert.ok(!(await bans(h, s.id)).some((b) => b.id === api.id));
    const trail = (await h.api('GET', `/servers/${s.id}/events?event_type=ban_file_changed`, { token: h.adminToken })).body.data.events;
    assert.deepEqual(
      trail.map((e: { detail: unknown }) => e.detail),
      [
        { imported: 0, removed_outside: 1 },
        { imported: 1, removed_outside: 0 },
      ],
    );
  });
});

describe('the shared ban file, written by others at the same moment', () => {
  let h: Harness;
  let fake: FakeInstall;
  before(async () => {
    fake = await installFakeGameaTemp();
    h = await startHarness(FAST_SUPERVISION);
  });
  after(async () => {
    await killGames(h);
    await h.close();
    await fake.remove();
  });
  const bans = bansOf;

  it('loses nothing when a tool appends to the file while Garrison writes it', async () => {
    const s = await createGameServer(h, fake);
    await mkdir(join(h.dataDir, 'servers', String(s.id), 'battleye'), { recursive: true });
    await writeFile(banFile(h, s.id), '// kept\n');
    // In each round the tool appends a burst of lines without pause, starting 0 to 11 ms into Garrison's
    // write: some land between Garrison's read and its rename.
    const rounds = 24;
    const burst = 60;
    let appended = 0;
    const appendBurst = async (after: number) => {
      await delay(after);
      for (let k = 0; k < burst; k += 1) {
        const n = appended++;
        await appendFile(banFile(h, s.id), `${guid(2000 + n)} -1 tool ${n}\n`);
      }
    };
    for (let i = 0; i < rounds; i += 1) {
      const [res] = await Promise.all([
        h.api('POST', `/servers/${s.id}/bans`, { token: h.adminToken, body: { player_uid: guid(1000 + i), reason: `api ${i}` } }),
        appendBurst(i % 12),
      ]);
      assert.equal(res.status, 201);
    }
    const text = await readFile(banFile(h, s.id), 'utf8');
    assert.ok(text.startsWith('// kept\n'));
    for (let i = 0; i < rounds; i += 1) assert.match(text, new RegExp(`^${guid(1000 + i)} -1 api ${i}$`, 'm'), `Garrison's ban ${i}`);
    for (let i = 0; i < appended; i += 1)
      assert.match(text, new RegExp(`^${guid(2000 + i)} -1 tool ${i}$`, 'm'), `the tool's ban ${i} of ${appended}`);
    let listed = 0;
    for (let page = 0; ; page += 500) {
      const got = (await bans(h, s.id, `&offset=${page}`)).length;
      listed += got;
      if (got < 500) break;
    }
    assert.equal(listed, rounds + appended, 'each line one ban');
  });

  it('loses nothing when the game bans over RCon while Garrison writes, and the game takes both', async () => {
    const s = await runningGameServer(h, fake);
    const rcon = await connectRcon({ host: '127.0.0.1', port: s.rcon_port, password: s.rcon_password });
    try {
      // The game's ban lands at a different moment of Garrison's write in each round (0 to 23 ms after it
      // began): before the read, between read and rename, between rename and reload, after.
      const rounds = 48;
      for (let i = 0; i < rounds; i += 1) {
        const [created, answer] = await Promise.all([
          h.api('POST', `/servers/${s.id}/bans`, { token: h.adminToken, body: { player_uid: guid(3000 + i), reason: `api ${i}` } }),
          delay(i % 24).then(() => rcon.command(`addBan ${guid(4000 + i)} 0 game ${i}`)),
        ]);
        assert.equal(created.status, 201);
        assert.equal(answer, '');
      }
      const text = await readFile(banFile(h, s.id), 'utf8');
      const inGame = await rcon.command('bans');
      for (let i = 0; i < rounds; i += 1) {
        for (const [id, why] of [
          [guid(3000 + i), `api ${i}`],
          [guid(4000 + i), `game ${i}`],
        ] as const) {
          assert.match(text, new RegExp(`^${id} -1 ${why}$`, 'm'), `${why} in the file`);
          assert.match(inGame, new RegExp(id), `${why} in force in the game`);
        }
      }
      const listed = await bans(h, s.id);
      assert.equal(listed.length, rounds * 2);
      assert.equal(listed.filter((b) => b.source === 'file').length, rounds);

      // A revoke through Garrison reaches the game; a removeBan in the game reaches Garrison.
      const gameBan = listed.find((b) => b.guid === guid(4000))!;
      await h.api('DELETE', `/servers/${s.id}/bans/${gameBan.id}`, { token: h.adminToken });
      assert.doesNotMatch(await rcon.command('bans'), new RegExp(guid(4000)));
      const index = /^(\d+)\s+(\w+)/gm;
      const rows = [...(await rcon.command('bans')).matchAll(index)].filter((m) => m[2] === guid(3001));
      await rcon.command(`removeBan ${rows[0][1]}`);
      await waitFor(async () => !(await bans(h, s.id)).some((b) => b.guid === guid(3001)), {
        what: 'the ban the game removed to end in Garrison',
      });
    } finally {
      await rcon.close();
      await killGames(h);
    }
  });
});
