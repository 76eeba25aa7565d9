import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import {
  freeGamePorts,
  installFakeGameaTemp,
  startNatsServer,
  startProcess,
  waitFor,
  withDeadline,
  type TestProcess,
} from '@garrison/testkit';
import { freshMysqlDatabase, startGarrison } from '@garrison/testkit/harness';
import { ADMIN_PASSWORD, multipart, type Harness } from './helpers.js';
import { CLI, cliEnv, listeningUrl } from './cli-run.js';
import { otherHost, type OtherHost } from './netns.js';
import { isAlive, wsClient, type FakeInstall } from './games.js';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { pino } from 'pino';
import { LeaseRepository } from '../src/db/repositories/leases.js';
import { bindRepositories } from '../src/db/repositories/index.js';
import { ClusterLeases } from '../src/cluster/leases.js';
import { DatabaseTime } from '../src/cluster/database-time.js';
import { SystemClock } from '../src/jobs/clock.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

/**
 * Three instances on one MariaDB and a NATS server: A and B in this process, C a `garrison serve` of its
 * own (so that it can be SIGKILLed), each with its own data dir; C has the fake game installed.
 */
const MYSQL = process.env.GARRISON_TEST_DATABASE ?? 'mysql://root@127.0.0.1:3306/test';
const SECRETS = { jwtSecret: 'cluster-test-jwt-secret-0123456789abcdef', clusterSecret: 'cluster-test-cluster-secret-0123456789ab' };
const TIMING = { nodeHeartbeatMs: 250, nodeOfflineAfterMs: 2000 };
const METRICS_TOKEN = 'cluster-test-metrics-token-0123';

describe('a cluster of three instances on MariaDB and NATS', { timeout: 240_000 }, () => {
  let database: Awaited<ReturnType<typeof freshMysqlDatabase>>;
  let nats: TestProcess;
  let natsUrl: string;
  let natsMonitor: string;
  let a: Harness;
  let b: Harness;
  let c: { url: string; process: TestProcess } | null = null;
  let cDataDir: string;
  let fake: FakeInstall;
  let knex: Knex;
  const gamePids: number[] = [];

  /** Where C reaches the database and NATS: through relays when it is a host of its own. */
  let seenFromC: { database: string; nats: string };
  let host: OtherHost | null = null;
  const startC = async () => {
    const args = [...process.execArgv, CLI, 'serve', '--port', '0', '--data-dir', cDataDir, ...(host ? ['--host', host.address] : [])];
    const [command, commandArgs] = host ? host.command(process.execPath, args) : [process.execPath, args];
    const started = startProcess(command, commandArgs, {
      env: cliEnv({
        GARRISON_DATABASE_URL: seenFromC.database,
        GARRISON_NATS_URL: seenFromC.nats,
        GARRISON_JWT_SECRET: SECRETS.jwtSecret,
        GARRISON_CLUSTER_SECRET: SECRETS.clusterSecret,
        GARRISON_NODE_ID: 'node-c',
        GARRISON_NODE_HEARTBEAT_MS: String(TIMING.nodeHeartbeatMs),
        GARRISON_NODE_OFFLINE_AFTER_MS: String(TIMING.nodeOfflineAfterMs),
        GARRISON_ADMIN_PASSWORD: ADMIN_PASSWORD,
        GARRISON_STOP_TIMEOUT_MS: '3000',
        GARRISON_WEBHOOK_ALLOW_PRIVATE: '1',
        GARRISON_METRICS_TOKEN: METRICS_TOKEN,
      }),
    });
    try {
      return { url: await listeningUrl(started, 'node C to listen'), process: started };
    } catch (err) {
      await started.kill();
      throw new Error(`${(err as Error).message}; it wrote: ${started.stdout.join('\n')} ${started.stderr.join('')}`, { cause: err });
    }
  };
  const instance = (nodeId: string) =>
    startGarrison({
      databaseUrl: database.url,
      adminPassword: ADMIN_PASSWORD,
      natsUrl,
      nodeId,
      ...SECRETS,
      ...TIMING,
      stopTimeoutMs: 3000,
      loginRateLimit: 50,
      webhookAllowPrivate: true,
      metricsToken: METRICS_TOKEN,
    });

  before(async () => {
    // A NATS server of this test's own (the machine's nats-server), so that it can be stopped without touching any other test.
    ({ url: natsUrl, monitorUrl: natsMonitor, process: nats } = await startNatsServer());
    database = await freshMysqlDatabase(MYSQL);
    knex = knexFactory({ client: 'mysql2', connection: database.url, pool: { min: 0, max: 4 } });
    fake = await installFakeGameaTemp();
    cDataDir = await mkdtemp(join(tmpdir(), 'garrison-node-c-'));
    // Node C on a host of its own where the machine allows it: forwarded requests cross a real network stack.
    host = await otherHost();
    const mysql = new URL(database.url);
    if (host) {
      const relayed = new URL(database.url);
      relayed.host = await host.relay(Number(mysql.port || 3306));
      seenFromC = { database: relayed.toString(), nats: `nats://${await host.relay(Number(new URL(natsUrl).port))}` };
    } else seenFromC = { database: database.url, nats: natsUrl };
    a = await instance('node-a');
    b = await instance('node-b');
    c = await startC();
  });

  after(async () => {
    for (const pid of gamePids) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await c?.process.kill();
    await a?.close();
    await b?.close();
    await nats?.kill();
    await knex?.destroy();
    await database?.drop();
    await fake?.remove();
    await rm(cDataDir, { recursive: true, force: true });
    await host?.remove();
  });

  const nodesSeenBy = async (h: Harness) =>
    (await h.api('GET', '/nodes', { token: h.viewerToken })).body.data as {
      id: string;
      online: boolean;
      server_count: number;
      events_connected: boolean | null;
    }[];

  it('forms one cluster: every instance lists the three nodes online, connected to NATS', async (t) => {
    t.diagnostic(host ? `node C on a network namespace of its own at ${host.address}` : 'node C on loopback (no network namespaces here)');
    const nodes = await waitFor(
      async () => {
        const seen = await nodesSeenBy(a);
        return seen.length === 3 && seen.every((n) => n.online && n.events_connected) && seen;
      },
      { timeoutMs: 30_000, what: 'three nodes online' },
    );
    assert.deepEqual(
      nodes.map((n) => n.id),
      ['node-a', 'node-b', 'node-c'],
    );
    // The history pruning at each start ran under one lease: its token moved once, whoever took it.
    const lease = await knex('leases').where({ name: 'history.prune' }).first();
    assert.equal(Number(lease.token), 1, 'the cluster-wide pruning ran under one holding');
    assert.ok(['node-a', 'node-b', 'node-c'].includes(lease.holder));
    if (host) assert.equal(new URL(c!.url).hostname, host.address, 'C listens on its own host');
  });

  it('refuses a second instance with the same node id', async () => {
    await assert.rejects(instance('node-c'), /another instance is running with node id node-c on this database/);
  });

  let serverId: number;
  let gamePid: number;

  it('creates, starts and commands a server on node C through instance A, and B streams its log', async () => {
    const created = await a.api('POST', '/servers', {
      token: a.adminToken,
      body: { name: 'On C', exe_path: fake.exePath, node_id: 'node-c', ...(await freeGamePorts()) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    serverId = created.body.data.id;
    assert.equal(created.body.data.node_id, 'node-c');
    assert.ok(created.body.data.rcon_password, 'the credentials come back once, through the forward');
    assert.ok(existsSync(join(cDataDir, 'servers', String(serverId))), "the server's folder is on node C");
    assert.ok(!existsSync(join(a.dataDir, 'servers', String(serverId))), 'and not on node A');

    const started = await a.api('POST', `/servers/${serverId}/start`, { token: a.adminToken });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    gamePid = started.body.data.pid;
    gamePids.push(gamePid);
    await waitFor(async () => (await b.api('GET', `/servers/${serverId}`, { token: b.viewerToken })).body.data.status === 'running', {
      timeoutMs: 30_000,
      what: 'running, as B sees it',
    });

    // NATS carries a server's log lines only to an instance where someone follows them.
    const logSubjects = async () => {
      const subsz = (await (await fetch(`${natsMonitor}/subsz?subs=1`)).json()) as { subscriptions_list?: { subject: string }[] };
      return (subsz.subscriptions_list ?? []).map((s) => s.subject).filter((subject) => subject.endsWith('.log'));
    };
    assert.deepEqual(await logSubjects(), [], 'no log subscription while nobody follows a log');
    const ws = await wsClient(b.url, `/ws?token=${b.adminToken}&server_id=${serverId}`);
    try {
      await waitFor(async () => (await logSubjects()).includes(`garrison.ev.${serverId}.log`), {
        timeoutMs: 10_000,
        what: "B's subscription to the server's log",
      });
      const command = await a.api('POST', `/servers/${serverId}/rcon/command`, { token: a.adminToken, body: { command: '#lock' } });
      assert.equal(command.status, 200, JSON.stringify(command.body));
      await ws.next((m) => m.type === 'log' && m.server_id === serverId && /Server locked/.test(m.data.message), 'the game log line on B');

      const mission = multipart([{ name: 'file', filename: 'cluster_test.Altis.pbo', content: Buffer.alloc(64 * 1024, 7) }]);
      const uploaded = await fetch(`${a.url}/api/servers/${serverId}/missions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.adminToken}`, 'content-type': mission.type },
        body: mission.body,
      });
      assert.equal(uploaded.status, 201, await uploaded.clone().text());
      assert.ok(existsSync(join(fake.dir, 'mpmissions', 'cluster_test.Altis.pbo')), "the mission is in node C's game folder");
      const listed = await b.api('GET', `/servers/${serverId}/missions`, { token: b.viewerToken });
      assert.ok(JSON.stringify(listed.body.data).includes('cluster_test.Altis'), 'listed through B');
      // A client that leaves the log channel ends the interest.
      ws.send({ type: 'unsubscribe', channels: ['log'] });
      await waitFor(async () => (await logSubjects()).length === 0, { timeoutMs: 10_000, what: 'the log subscription to end' });
    } finally {
      ws.close();
    }
    // The caller is who the owner records, whoever forwarded.
    const trail = (await b.api('GET', `/servers/${serverId}/events?limit=50`, { token: b.adminToken })).body.data.events as {
      event_type: string;
      actor: string;
      actor_kind: string;
    }[];
    assert.ok(
      trail.some((e) => e.event_type === 'start' && e.actor === 'admin' && e.actor_kind === 'user'),
      JSON.stringify(trail.slice(0, 5)),
    );

    // Each instance's /metrics holds the servers it owns, and only those.
    const scrape = async (url: string) => (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const series = `garrison_server_up{server_id="${serverId}",game="gamea"} 1`;
    assert.ok((await scrape(c!.url)).includes(series), 'node C exposes its server');
    for (const other of [a, b]) assert.ok(!(await scrape(other.url)).includes(`server_id="${serverId}"`), 'A and B do not');
  });

  let receiver: Receiver | null = null;
  after(() => receiver?.close());
  /** The node events delivered to a webhook endpoint, each with how many outbox rows the cluster made of it. */
  const nodeEvents = async (type: string) => {
    const delivered = receiver!.received.filter((r) => (r.json as { type: string }).type === type);
    const [{ n }] = await knex('webhook_deliveries').where({ event_type: type }).count({ n: '*' });
    return { delivered, rows: Number(n) };
  };

  it('shows the servers of a killed node as unknown and answers NODE_UNAVAILABLE; the game keeps running', async () => {
    receiver = await startReceiver();
    // Whichever instance delivers (C too, from its own host) reaches the receiver: through a relay on this side's veth address.
    const url = host ? `http://${await host.relay(receiver.port)}/hook` : receiver.url;
    const hook = await a.api('POST', '/webhooks', {
      token: a.adminToken,
      body: { url, kind: 'generic', events: ['node.offline', 'node.online'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    c!.process.child.kill('SIGKILL');
    await withDeadline(c!.process.exited, 10_000, 'node C to die');
    c = null;
    const seen = await waitFor(
      async () => {
        const s = (await a.api('GET', `/servers/${serverId}`, { token: a.viewerToken })).body.data;
        return s.status === 'unknown' && s;
      },
      { timeoutMs: 15_000, what: 'status unknown' },
    );
    assert.equal(seen.node_online, false);
    assert.ok(isAlive(gamePid), 'the game survived the SIGKILL of its node');
    const refused = await a.api('POST', `/servers/${serverId}/rcon/command`, { token: a.adminToken, body: { command: '#lock' } });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error.code, 'NODE_UNAVAILABLE');
    const nodeC = (await nodesSeenBy(b)).find((n) => n.id === 'node-c');
    assert.equal(nodeC?.online, false);
    // Reads served from the database go on.
    assert.equal((await b.api('GET', `/servers/${serverId}/config`, { token: b.adminToken })).status, 200);
    // A and B both noticed; the webhook heard it once.
    await receiver.waitForCount(1, 'node.offline delivered');
    const offline = await nodeEvents('node.offline');
    assert.deepEqual([offline.delivered.length, offline.rows], [1, 1]);
    assert.deepEqual((offline.delivered[0].json as { data: unknown }).data, { node_id: 'node-c' });
  });

  it('re-adopts the game when node C comes back, and its events flow again', async () => {
    c = await startC();
    await waitFor(
      async () => {
        const s = (await a.api('GET', `/servers/${serverId}`, { token: a.viewerToken })).body.data;
        return s.status === 'running' && s.node_online && s.pid === gamePid;
      },
      { timeoutMs: 30_000, what: 'the game re-adopted, as A sees it' },
    );
    await waitFor(async () => (await nodesSeenBy(b)).find((n) => n.id === 'node-c')?.events_connected, {
      timeoutMs: 15_000,
      what: 'node C back on NATS',
    });
    const ws = await wsClient(b.url, `/ws?token=${b.adminToken}&server_id=${serverId}`);
    try {
      await waitFor(
        async () => {
          await a.api('POST', `/servers/${serverId}/rcon/command`, { token: a.adminToken, body: { command: '#unlock' } });
          return ws.messages.some((m) => m.type === 'log' && /Server unlocked/.test(m.data.message));
        },
        { timeoutMs: 30_000, intervalMs: 1000, what: 'a log line from the re-adopted game on B' },
      );
    } finally {
      ws.close();
    }
    await waitFor(async () => (await nodeEvents('node.online')).delivered.length === 1, {
      timeoutMs: 30_000,
      what: 'node.online delivered',
    });
    assert.equal((await nodeEvents('node.online')).rows, 1, 'once, though every instance noticed');
    const stopped = await b.api('POST', `/servers/${serverId}/stop`, { token: b.adminToken });
    assert.equal(stopped.status, 200, JSON.stringify(stopped.body));
    await waitFor(() => !isAlive(gamePid), { timeoutMs: 15_000, what: 'the game to stop' });
  });

  it('keeps serving when NATS goes down, says so, and reconnects', async () => {
    await nats.kill();
    await waitFor(async () => (await nodesSeenBy(a)).find((n) => n.id === 'node-a')?.events_connected === false, {
      timeoutMs: 15_000,
      what: 'A to say NATS is down',
    });
    assert.equal((await a.api('GET', '/servers', { token: a.viewerToken })).status, 200);
    nats = (await startNatsServer(Number(new URL(natsUrl).port))).process;
    await waitFor(async () => (await nodesSeenBy(a)).every((n) => n.events_connected), {
      timeoutMs: 30_000,
      what: 'every node back on NATS',
    });
  });

  it('gives a cluster-wide lease to one of two racing instances, and fences the one whose lease ran out', async () => {
    const leases = new LeaseRepository(knex);
    const race = await Promise.all(Array.from({ length: 10 }, (_, i) => leases.acquire('test.race', i % 2 ? 'node-a' : 'node-b', 300)));
    const holders = new Set(race.filter(Boolean).map((h) => h!.holder));
    assert.equal(holders.size, 1, 'one holder');
    const first = race.find(Boolean)!;
    await waitFor(async () => (await leases.acquire('test.race', first.holder === 'node-a' ? 'node-b' : 'node-a', 60_000)) ?? false, {
      timeoutMs: 5000,
      intervalMs: 50,
      what: 'the lease to expire and be taken over',
    });
    const now = await knex('leases').where({ name: 'test.race' }).first();
    assert.equal(Number(now.token), first.token + 1, 'the takeover moved the fencing token on');
    await knex.schema.createTable('fence_probe', (t) => t.integer('n'));
    await knex('fence_probe').insert({ n: 1 });
    const stale = await leases.fence(first)(knex('fence_probe')).delete();
    assert.equal(stale, 0, 'the old holder cannot write');
    assert.equal(
      await leases
        .fence({ name: 'test.race', holder: now.holder, token: Number(now.token) })(knex('fence_probe'))
        .delete(),
      1,
      'the new one can',
    );
  });

  it('runs a cluster-wide job once each time its two instances race for it', async () => {
    const quiet = pino({ level: 'silent' });
    const instances = ['node-a', 'node-b'].map((node) => ({ node, leases: new ClusterLeases(bindRepositories(knex), node, quiet) }));
    const ran: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      // Both instances' job comes round at the same moment; the work takes a while, as a prune would.
      const outcomes = await Promise.all(
        instances.map(({ node, leases }) =>
          leases.once('test.job', 60_000, async () => {
            ran.push(node);
            await new Promise((resolve) => setImmediate(resolve));
          }),
        ),
      );
      assert.equal(outcomes.filter(Boolean).length, 1, `round ${round}: one instance did the work`);
    }
    assert.equal(ran.length, 10);
    assert.equal(new Set(ran).size, 1, 'the lease stays with its holder, renewed at each run');
  });

  it(
    "refuses a request that says it was forwarded unless the cluster secret signed it, lately by the database's clock, once, " +
      'with the body it came with',
    async () => {
      const path = '/api/servers';
      const authorization = `Bearer ${a.viewerToken}`;
      const sha = (text: string) => createHash('sha256').update(text).digest('base64url');
      /** The hop's headers as a peer signs them: method, URL, node, time, nonce, the body's digest (or `trailer`), the token's digest. */
      const stamped = (time: number, secret: string, hop: { method?: string; path?: string; nonce?: string; body?: string } = {}) => {
        const nonce = hop.nonce ?? randomBytes(16).toString('base64url');
        const body = hop.body ?? sha('');
        const signature = createHmac('sha256', secret)
          .update([hop.method ?? 'GET', hop.path ?? path, 'node-b', String(time), nonce, body, sha(authorization)].join('\n'))
          .digest('base64url');
        return {
          'x-garrison-node': 'node-b',
          'x-garrison-time': String(time),
          'x-garrison-nonce': nonce,
          'x-garrison-body': body,
          'x-garrison-signature': signature,
        };
      };
      const get = async (headers: Record<string, string>) =>
        (await fetch(`${a.url}${path}`, { headers: { authorization, ...headers } })).status;
      // A host whose own clock is an hour ahead still reckons the database's time.
      const skewed = new SystemClock();
      skewed.now = () => Date.now() + 3_600_000;
      const reckoned = new DatabaseTime(skewed, bindRepositories(knex));
      await reckoned.measure();
      const [[{ now }]] = (await knex.raw('SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000) AS now')) as [[{ now: string }]];
      assert.ok(Math.abs(reckoned.now() - Number(now)) < 2_000, `reckoned ${reckoned.now()}, the database says ${now}`);

      const signed = stamped(reckoned.now(), SECRETS.clusterSecret);
      assert.equal(await get(signed), 200, 'signed by a peer whose clock is an hour ahead');
      assert.equal(await get(signed), 401, 'the same hop again: its nonce was seen');
      assert.equal(await get(stamped(reckoned.now(), 'not-the-cluster-secret-0123456789abcdef')), 401, 'another secret');
      assert.equal(await get(stamped(reckoned.now() - 10 * 60_000, SECRETS.clusterSecret)), 401, 'a copy replayed ten minutes later');
      assert.equal(await get({ 'x-garrison-node': 'node-b' }), 401, 'not signed at all');
      const time = String(reckoned.now());
      const withoutNonce = createHmac('sha256', SECRETS.clusterSecret)
        .update(['GET', path, 'node-b', time, sha(authorization)].join('\n'))
        .digest('base64url');
      assert.equal(
        await get({ 'x-garrison-node': 'node-b', 'x-garrison-time': time, 'x-garrison-signature': withoutNonce }),
        401,
        'signed as before nonces: no nonce',
      );

      // A body: signed by its digest, taken once, and not another body under that signature.
      const keys = '/api/auth/keys';
      const keyNames = async () =>
        ((await a.api('GET', '/auth/keys', { token: a.viewerToken })).body.data as { name: string }[]).map((k) => k.name);
      const post = async (headers: Record<string, string>, body: string) => {
        const res = await fetch(`${a.url}${keys}`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json', ...headers },
          body,
        }).catch(() => null);
        return res?.status ?? 'cut off';
      };
      const asSigned = JSON.stringify({ name: 'hop signed', scopes: ['servers:read'] });
      const forged = JSON.stringify({ name: 'hop forged', scopes: ['servers:read'] });
      const withBody = stamped(reckoned.now(), SECRETS.clusterSecret, { method: 'POST', path: keys, body: sha(asSigned) });
      assert.equal(await post(withBody, asSigned), 201);
      assert.equal(await post(withBody, asSigned), 401, 'the same hop with its body again');
      const another = stamped(reckoned.now(), SECRETS.clusterSecret, { method: 'POST', path: keys, body: sha(asSigned) });
      assert.notEqual(await post(another, forged), 201, 'another body under a signed digest');
      // Streamed (as an upload is forwarded): the digest follows as a signed trailer.
      const streamed = (body: string, trailerOf: string, trailerSecret = SECRETS.clusterSecret) =>
        new Promise<number | 'cut off'>((resolve) => {
          const headers = stamped(reckoned.now(), SECRETS.clusterSecret, { method: 'POST', path: keys, body: 'trailer' });
          const bodySignature = createHmac('sha256', trailerSecret)
            .update(['body', headers['x-garrison-nonce'], sha(trailerOf)].join('\n'))
            .digest('base64url');
          const req = httpRequest(
            `${a.url}${keys}`,
            {
              method: 'POST',
              headers: {
                authorization,
                'content-type': 'application/json',
                'transfer-encoding': 'chunked',
                trailer: 'x-garrison-body-sha256, x-garrison-body-signature',
                ...headers,
              },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode!);
            },
          );
          req.on('error', () => resolve('cut off'));
          req.write(body);
          req.addTrailers({ 'x-garrison-body-sha256': sha(trailerOf), 'x-garrison-body-signature': bodySignature });
          req.end();
        });
      const asStreamed = JSON.stringify({ name: 'hop streamed', scopes: ['servers:read'] });
      assert.equal(await streamed(asStreamed, asStreamed), 201);
      assert.notEqual(await streamed(forged, asStreamed), 201, 'a streamed body other than the one its trailer signs');
      assert.notEqual(
        await streamed(forged, forged, 'not-the-cluster-secret-0123456789abcdef'),
        201,
        'a trailer not signed with the secret',
      );
      const names = await keyNames();
      assert.ok(names.includes('hop signed') && names.includes('hop streamed'));
      assert.ok(!names.includes('hop forged'), 'no forged body was taken');
      const [{ count }] = (await knex('cluster_nonces').count({ count: '*' })) as [{ count: number | string }];
      assert.ok(Number(count) >= 4, 'the nonces are kept in the database');
    },
  );

  it('counts the rate limits across the cluster and refuses a deleted user everywhere at once', async () => {
    const attempt = (h: Harness) => h.api('POST', '/auth/login', { body: { username: 'nobody', password: 'wrong-password' } });
    const first = await attempt(a);
    const left = Number(first.headers.get('ratelimit-remaining'));
    assert.equal(Number((await attempt(b)).headers.get('ratelimit-remaining')), left - 1, "B counts on from A's count");
    assert.equal(Number((await attempt(a)).headers.get('ratelimit-remaining')), left - 2, "and A from B's");

    const user = await a.userToken('viewer');
    assert.equal((await b.api('GET', '/servers', { token: user.token })).status, 200);
    assert.equal((await a.api('DELETE', `/auth/users/${user.id}`, { token: a.adminToken })).status, 204);
    const refused = await b.api('GET', '/servers', { token: user.token });
    assert.equal(refused.status, 401, 'the very next request on B is refused');
  });
});
