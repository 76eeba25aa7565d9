import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { freePort } from '@garrison/testkit';
import { expectError } from './helpers.js';
import { createGameServer, gameService, serverRecord, statusBecomes } from './games.js';
import { garrison } from './cli-run.js';

// `garrison servers …` and `garrison rcon` run as real processes against a real service and the fake
// game, with an API key: what a script on another host does.

const SLOW = { timeout: 180_000 };

describe('the garrison command against a running service', () => {
  const suite = gameService();

  async function makeKey(scopes: string[]): Promise<string> {
    const res = await suite.h.api('POST', '/auth/keys', { token: suite.h.adminToken, body: { name: `cli ${scopes.join(' ')}`, scopes } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.key as string;
  }

  /** `garrison ARGS` with the service's URL and KEY in the environment, as a script sets them. */
  async function remote(key: string, args: string[], timeoutMs?: number) {
    const result = await garrison(args, { env: { GARRISON_URL: suite.h.url, GARRISON_API_KEY: key }, timeoutMs });
    assert.ok(!result.stdout.includes(key) && !result.stderr.includes(key), `the key is never printed: ${result.stdout}${result.stderr}`);
    assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack');
    return result;
  }

  it('lists the servers as a table and as JSON; starts, restarts and stops one by name or id; runs a command', SLOW, async () => {
    const key = await makeKey(['servers:read', 'servers:control', 'rcon']);
    const alpha = await createGameServer(suite.h, suite.fake, { name: 'Alpha Base' });
    const bravo = await createGameServer(suite.h, suite.fake, { name: 'Bravo' });

    const table = await remote(key, ['servers', 'list']);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^ID +NAME +GAME +STATUS +PLAYERS +PORT +ATTENTION$/);
    const row = lines.find((l) => l.startsWith(`${alpha.id} `));
    assert.match(row!, new RegExp(`^${alpha.id} +Alpha Base +gamea +stopped +- +${alpha.game_port} +-$`));
    assert.ok(lines.some((l) => new RegExp(`^${bravo.id} +Bravo +`).test(l)));

    const json = await remote(key, ['servers', 'list', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const listed = JSON.parse(json.stdout) as { id: number; name: string; status: string }[];
    const api = (await suite.h.api('GET', '/servers?limit=500', { token: suite.h.adminToken })).body.data as { id: number; name: string }[];
    assert.deepEqual(
      listed.map((s) => [s.id, s.name]),
      api.map((s) => [s.id, s.name]),
    );

    // By name, ignoring case: the service's answer, read back from the service.
    const started = await remote(key, ['servers', 'start', 'alpha base']);
    assert.equal(started.code, 0, started.stderr);
    const running = await statusBecomes(suite.h, alpha.id, 'running');
    assert.equal(started.stdout.trim(), `server ${alpha.id} (Alpha Base): starting (pid ${running.pid})`);

    const joined = await remote(key, ['rcon', 'Alpha Base', 'testkit.join', 'Bravo17', 'a'.repeat(32), '10.0.0.5']);
    assert.equal(joined.code, 0, joined.stderr);
    const players = await remote(key, ['rcon', String(alpha.id), 'players', '--json']);
    assert.equal(players.code, 0, players.stderr);
    assert.match((JSON.parse(players.stdout) as { response: string }).response, /Bravo17[\s\S]*\(1 players in total\)/);
    const plain = await remote(key, ['rcon', String(alpha.id), 'players']);
    assert.match(plain.stdout, /^Players on server:[\s\S]*Bravo17\n\(1 players in total\)\n$/);

    // Words that begin with a dash, after --: the command is the words joined, as the audit trail keeps it.
    const said = await remote(key, ['rcon', String(alpha.id), '--', 'say', '-1', 'Hello', 'there']);
    assert.equal(said.code, 0, said.stderr);
    const commands = (await suite.h.api('GET', `/servers/${alpha.id}/events?event_type=command`, { token: suite.h.adminToken })).body.data
      .events;
    assert.equal(commands[0].detail?.line, 'say -1 Hello there', JSON.stringify(commands[0]));

    const restarted = await remote(key, ['servers', 'restart', String(alpha.id), '--json']);
    assert.equal(restarted.code, 0, restarted.stderr);
    const answer = JSON.parse(restarted.stdout) as { server_id: number; status: string; pid: number };
    assert.deepEqual({ ...answer, pid: typeof answer.pid }, { server_id: alpha.id, status: 'starting', pid: 'number' });
    assert.notEqual(answer.pid, running.pid);
    assert.equal((await statusBecomes(suite.h, alpha.id, 'running')).pid, answer.pid);

    const stopped = await remote(key, ['servers', 'stop', 'Alpha Base', '--reason', 'maintenance']);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.equal(stopped.stdout.trim(), `server ${alpha.id} (Alpha Base): stopped`);
    assert.equal((await serverRecord(suite.h, alpha.id)).status, 'stopped');
    const trail = (await suite.h.api('GET', `/servers/${alpha.id}/events?event_type=stop`, { token: suite.h.adminToken })).body.data.events;
    assert.equal(trail[0].detail?.reason, 'maintenance', JSON.stringify(trail[0]));

    // The service's refusal, with its code: the server is stopped already.
    const again = await remote(key, ['servers', 'stop', String(alpha.id)]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^garrison: SERVER_NOT_RUNNING: .+\n$/);
  });

  it(
    'exits 1 with the API error code for a wrong key or a missing scope, and for an unknown server; 2 for a name several servers share',
    SLOW,
    async () => {
      const key = await makeKey(['servers:read', 'servers:control']);
      const readOnly = await makeKey(['servers:read']);
      const twin = await createGameServer(suite.h, suite.fake, { name: 'Twin' });
      await createGameServer(suite.h, suite.fake, { name: 'Twin' });

      const wrong = `${key.slice(0, -4)}xxxx`;
      const refused = await remote(wrong, ['servers', 'list']);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /^garrison: UNAUTHORIZED: .+\n$/);
      assert.ok(!refused.stderr.includes(wrong.slice(-20)), 'not even the wrong key is printed');

      const forbidden = await remote(readOnly, ['servers', 'start', String(twin.id)]);
      assert.equal(forbidden.code, 1);
      assert.match(forbidden.stderr, /^garrison: FORBIDDEN: .+\n$/);
      assert.equal((await serverRecord(suite.h, twin.id)).status, 'stopped');

      const noSuchId = await remote(key, ['servers', 'start', '999999']);
      assert.equal(noSuchId.code, 1);
      assert.match(noSuchId.stderr, /^garrison: NOT_FOUND: .+\n$/);
      expectError(await suite.h.api('GET', '/servers/999999', { token: suite.h.adminToken }), 404, 'NOT_FOUND');

      const noSuchName = await remote(key, ['servers', 'restart', 'Nobody Here']);
      assert.equal(noSuchName.code, 1);
      assert.match(noSuchName.stderr, /^garrison: NOT_FOUND: no server is named "Nobody Here"/);

      const shared = await remote(key, ['servers', 'start', 'Twin']);
      assert.equal(shared.code, 2);
      assert.match(shared.stderr, /^garrison: 2 servers are named "Twin" \(ids \d+, \d+\): give the id instead\n/);
      assert.match(shared.stderr, /usage: garrison servers start SERVER/);
      assert.equal((await serverRecord(suite.h, twin.id)).status, 'stopped');
    },
  );

  it('exits 2 without a URL or a key, or with a bad flag; takes them from flags too', SLOW, async () => {
    const key = await makeKey(['servers:read']);
    const noKey = await garrison(['servers', 'list'], { env: { GARRISON_URL: suite.h.url } });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /^garrison: the API key is missing: set GARRISON_API_KEY/);
    const noUrl = await garrison(['servers', 'list'], { env: { GARRISON_API_KEY: key } });
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /^garrison: the service's URL is missing/);
    assert.ok(!noUrl.stderr.includes(key));
    const badTimeout = await remote(key, ['servers', 'list', '--timeout', 'soon']);
    assert.equal(badTimeout.code, 2);
    assert.match(badTimeout.stderr, /^garrison: --timeout must be a number of seconds above 0, at most 3600; got "soon"/);
    const withPassword = await garrison(['servers', 'list', '--url', 'http://admin:hunter2@127.0.0.1:8080'], {
      env: { GARRISON_API_KEY: key },
    });
    assert.equal(withPassword.code, 2);
    assert.match(withPassword.stderr, /^garrison: --url must not hold a user name or password/);
    assert.ok(!withPassword.stderr.includes('hunter2'));
    // A key typed where the server was expected is not echoed.
    const misplaced = await remote(key, ['servers', 'list', key]);
    assert.equal(misplaced.code, 2);
    assert.match(misplaced.stderr, /unexpected argument "gar_\*\*\*"/);

    const byFlags = await garrison(['servers', 'list', '--json', '--url', suite.h.url, '--api-key', key]);
    assert.equal(byFlags.code, 0, byFlags.stderr);
    assert.ok(Array.isArray(JSON.parse(byFlags.stdout)));
  });

  it(
    'says in one line that the service cannot be reached: at once when refused, after --timeout when it does not answer',
    SLOW,
    async () => {
      const key = 'gar_1_' + 'k'.repeat(43);
      const closed = await freePort();
      const refused = await garrison(['servers', 'list', '--url', `http://127.0.0.1:${closed}`, '--api-key', key]);
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr, `garrison: cannot reach http://127.0.0.1:${closed}: connection refused (ECONNREFUSED)\n`);

      // A host that takes the connection and never answers: the command gives up after its time-out.
      const held: Socket[] = [];
      const silent = createTcpServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const port = (silent.address() as { port: number }).port;
        const began = Date.now();
        const hung = await garrison(['rcon', '1', 'players', '--url', `http://127.0.0.1:${port}`, '--timeout', '1.5'], {
          env: { GARRISON_API_KEY: key },
          timeoutMs: 30_000,
        });
        const took = Date.now() - began;
        assert.equal(hung.code, 1);
        assert.equal(hung.stderr, `garrison: no answer from http://127.0.0.1:${port} within 1.5 s\n`);
        // Without the time-out fetch would wait 300 s for the headers; the rest is the process's own start.
        assert.ok(took >= 1500 && took < 25_000, `gave up after its time-out (${took} ms)`);
        assert.ok(held.length >= 1, 'the command did connect');
      } finally {
        for (const socket of held) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    },
  );
});
