import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, readdir, readlink } from 'node:fs/promises';
import { waitFor } from '@garrison/testkit';
import { gameService, FAST_SUPERVISION, createGameServer, killGames, serverRecord, statusBecomes, wsClient } from './games.js';

interface Stored {
  id: number;
  timestamp: string;
  level: string;
  message: string;
}

/** The `.rpt` file the game process holds open. */
async function rptOf(pid: number): Promise<string> {
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    if (target.endsWith('.rpt')) return target;
  }
  throw new Error(`process ${pid} has no .rpt open`);
}

// RPT text as real servers write it: error blocks with indented lines, levels in the middle of a line,
// untimestamped continuations (the rest of an error, XML), lines the game writes without a time that
// start an entry of their own (a level word first), 1-digit hours padded with a space, UTF-8.
const SHORT_FORMS = [
  ' 3:45:43 Mission rpt-a read from bank.',
  ' 3:45:44 Error in expression <if (_rptA > 0) then {>',
  ' 3:45:44   Error position: <_rptA > 0) then {>',
  ' 3:45:44   Error Undefined variable in expression: _rptA',
  ' 3:45:44 File mpmissions\\__cur_mp.Altis\\rpt-a.sqf..., line 12',
  ' 3:45:45 [CBA] (xeh) WARNING: rpt-a Extended_InitPost_EventHandlers is missing',
  ' 3:45:45 Sound: Error: rpt-a sound not found: \\a3\\sounds_f\\dummy.wss',
  " 3:45:46 Warning Message: rpt-a No entry 'bin\\config.bin/CfgVehicles/B_Soldier_F.scope'.",
  " 3:45:47 ErrorMessage: File mpmissions\\__cur_mp.Altis\\description.ext, line 61: rpt-a '/Header.gameType': Missing ';'",
  '17:24:02 Error in expression <call compile preprocessFileLineNumbers "rpt-b.sqf";>',
  '17:24:02   Error Zero divisor rpt-b',
  'File \\x\\cba\\addons\\xeh\\fnc_init.sqf [rpt-b]..., line 3',
  '<?xml version="1.0"?><config rpt-b="1"><entry name="x"/></config>',
  'Error: Object(23 : 706) not found rpt-b',
  'Warning: Convex component 12 not found in rpt-b.p3d:0',
  '  indented under the warning rpt-b',
  '17:24:03 Application terminated intentionally rpt-b',
  "ErrorMessage: File mpmissions\\__cur_mp.Altis\\description.ext, line 61: rpt-b '/CfgRemoteExec/': Missing '}'",
  '17:24:03 Игрок rpt-c: привет 👋 — 作弊者 — naïve café  ',
];
const SHORT_LEVELS = [
  'info',
  'error',
  'error',
  'error',
  'info',
  'warning',
  'error',
  'warning',
  'error',
  'error',
  'error',
  'error',
  'error',
  'error',
  'warning',
  'warning',
  'info',
  'error',
  'info',
];
/** The text after the time: what is stored as the message. */
const afterTime = (line: string) => line.replace(/^ ?\d{1,2}:\d{2}:\d{2} /, '').replace(/^\d{4}\/\d{2}\/\d{2}, +\d{1,2}:\d{2}:\d{2} /, '');

describe('game logs in the forms real servers write them', () => {
  const suite = gameService({ ...FAST_SUPERVISION, logLinesPerSecond: 1000 });
  const logs = async (id: number, query = '') =>
    (await suite.h.api('GET', `/servers/${id}/logs?limit=500${query}`, { token: suite.h.viewerToken })).body.data as {
      total: number;
      logs: Stored[];
    };

  /** A game with that time stamp format, running. */
  async function game(format: 'none' | 'short' | 'full') {
    const s = await createGameServer(suite.h, suite.fake);
    const section = (await suite.h.api('GET', `/servers/${s.id}/config/server`, { token: suite.h.adminToken })).body.data;
    const put = await suite.h.api('PUT', `/servers/${s.id}/config/server`, {
      token: suite.h.adminToken,
      body: { time_stamp_format: format, config_version: section._meta.config_version },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal((await suite.h.api('POST', `/servers/${s.id}/start`, { token: suite.h.adminToken })).status, 200);
    const record = await statusBecomes(suite.h, s.id, 'running');
    return { ...s, pid: record.pid as number, rpt: await rptOf(record.pid) };
  }

  /** Waits until a stored line with this message exists, and answers the stored lines. */
  const storedUntil = (id: number, message: string) =>
    waitFor(
      async () => {
        const page = await logs(id);
        return page.logs.some((l) => l.message === message) && page.logs;
      },
      { what: `the line ${JSON.stringify(message)} stored` },
    );

  it('reads levels, continuations and UTF-8 from short time stamps, each line once, through the API and the WebSocket', async () => {
    const s = await game('short');
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${s.id}`);
    try {
      await appendFile(s.rpt, SHORT_FORMS.map((l) => `${l}\r\n`).join(''));
      const stored = await storedUntil(s.id, afterTime(SHORT_FORMS.at(-1)!));
      await ws.next((m) => m.type === 'log' && m.data.message === afterTime(SHORT_FORMS.at(-1)!), 'the last line sent live');
      SHORT_FORMS.forEach((line, i) => {
        const message = afterTime(line);
        const rows = stored.filter((l) => l.message === message);
        assert.equal(rows.length, 1, `stored once: ${message}`);
        assert.equal(rows[0].level, SHORT_LEVELS[i], message);
        const live = ws.messages.filter((m) => m.type === 'log' && m.data.message === message);
        assert.equal(live.length, 1, `sent once: ${message}`);
        assert.equal(live[0].data.level, SHORT_LEVELS[i]);
      });
      // Newest first: the stored order is the file's.
      const ids = SHORT_FORMS.map((l) => stored.find((r) => r.message === afterTime(l))!.id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
    } finally {
      ws.close();
    }
  });

  it('passes a line longer than the longest kept whole on in pieces, without losing a character', async () => {
    const s = await game('short');
    const long = `12:00:00 ${'долгая строка 🚀 '.repeat(1500)}end`;
    await appendFile(s.rpt, `${long}\n12:00:01 after the long line\n`);
    const stored = (await storedUntil(s.id, 'after the long line')).reverse(); // in the order written
    const start = stored.findIndex((l) => l.message.startsWith('долгая строка'));
    const pieces = stored.slice(
      start,
      stored.findIndex((l) => l.message === 'after the long line'),
    );
    assert.ok(pieces.length > 1, 'in pieces');
    assert.equal(pieces.map((p) => p.message).join(''), afterTime(long));
    assert.ok(pieces.every((p) => p.level === 'info'));
  });

  /** Every message sent live so far, by message. */
  const live = (ws: Awaited<ReturnType<typeof wsClient>>, message: string) =>
    ws.messages.filter((m) => m.type === 'log' && m.data.message === message);

  it("keeps the game's own date and time where the line carries a full date", async () => {
    const s = await game('full');
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${s.id}`);
    const stored = await storedUntil(s.id, 'Dedicated host created.');
    const own = stored.find((l) => l.message === 'Dedicated host created.')!;
    assert.ok(Math.abs(Date.parse(own.timestamp) - Date.now()) < 120_000, `the game's time, now: ${own.timestamp}`);
    assert.equal(new Date(own.timestamp).getMilliseconds(), 0, 'to the second, as the game writes it');

    await appendFile(
      s.rpt,
      '2021/09/29, 11:11:19 Error in expression <rpt-full>\n2021/09/29, 11:11:19   Error position: <rpt-full>\nrest of ' +
        "rpt-full\n2021/09/29, 11:11:20 Application terminated intentionally rpt-full\r\nErrorMessage: rpt-full Missing '}'\r\n" +
        '2021/09/29, 11:11:20 Warning: rpt-full done\n',
    );
    const later = await storedUntil(s.id, 'Warning: rpt-full done');
    const at = (message: string) => later.find((l) => l.message === message)!;
    assert.equal(at('Error in expression <rpt-full>').timestamp, new Date(2021, 8, 29, 11, 11, 19).toISOString());
    assert.equal(at('rest of rpt-full').timestamp, new Date(2021, 8, 29, 11, 11, 19).toISOString(), 'a continuation is of its entry');
    assert.equal(at('rest of rpt-full').level, 'error');
    assert.deepEqual(
      { ...at("ErrorMessage: rpt-full Missing '}'"), id: 0 },
      { id: 0, level: 'error', message: "ErrorMessage: rpt-full Missing '}'", timestamp: new Date(2021, 8, 29, 11, 11, 20).toISOString() },
      'an entry of its own, at the time of the line above',
    );
    assert.equal(at('Warning: rpt-full done').timestamp, new Date(2021, 8, 29, 11, 11, 20).toISOString());
    assert.equal(
      (await logs(s.id, `&since=${encodeURIComponent(new Date(2021, 8, 29, 11, 11, 20).toISOString())}&search=rpt-full`)).total,
      3,
    );
    await ws.next((m) => m.type === 'log' && m.data.message === 'Warning: rpt-full done', 'the last line sent live');
    const sent = live(ws, 'rest of rpt-full');
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0].data, {
      timestamp: new Date(2021, 8, 29, 11, 11, 19).toISOString(),
      level: 'error',
      message: 'rest of rpt-full',
    });
    ws.close();
  });

  it('reads every line alone where no line has a time, and keeps the last lines of a game that crashed', async () => {
    const s = await game('none');
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${s.id}`);
    await storedUntil(s.id, 'Dedicated host created.');
    const header = [
      '=====================================================================',
      'Exe timestamp: 2021/09/29 10:00:00',
      'Warning: rpt-none stands alone',
      'rpt-none after it, info',
      'Error: Object(23 : 706) not found rpt-none',
      '  <texture name="rpt-none"/>',
      'Warning: Convex component 12 not found in rpt-none.p3d:0',
      "ErrorMessage: File description.ext, line 61: rpt-none Missing '}'",
      'rpt-none the last, info',
    ];
    await appendFile(s.rpt, header.map((l) => `${l}\r\n`).join(''));
    const levels = ['info', 'info', 'warning', 'info', 'error', 'error', 'warning', 'error', 'info'];
    const stored = await storedUntil(s.id, header.at(-1)!);
    assert.deepEqual(
      header.map((m) => stored.find((l) => l.message === m)?.level),
      levels,
    );
    await ws.next((m) => m.type === 'log' && m.data.message === header.at(-1), 'the last line sent live');
    assert.deepEqual(
      header.map((m) => live(ws, m).map((e) => e.data.level)),
      levels.map((l) => [l]),
      'sent live once each',
    );
    ws.close();

    // The server dies right after writing why: what it wrote last is read before letting go.
    await appendFile(s.rpt, 'Error in expression <rpt-crash>\n  Error Undefined variable in expression: _rptCrash\n');
    await suite.h.api('POST', `/servers/${s.id}/rcon/command`, { token: suite.h.adminToken, body: { command: 'testkit.crash' } });
    await statusBecomes(suite.h, s.id, 'crashed');
    const last = await storedUntil(s.id, '  Error Undefined variable in expression: _rptCrash');
    assert.equal(last.find((l) => l.message === '  Error Undefined variable in expression: _rptCrash')!.level, 'error');
    assert.equal((await serverRecord(suite.h, s.id)).status, 'crashed');
    await killGames(suite.h);
  });
});
