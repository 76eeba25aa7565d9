import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '@garrison/testkit';
import { startHarness, type Harness } from './helpers.js';
import { gameService, FAST_SUPERVISION, runningGameServer, killGames, statusBecomes } from './games.js';

const TOKEN = 'metrics-token-0123456789';
type Failure = { error: { code: string; message: string } };
const GUID = 'd'.repeat(32);

const scrape = (h: Harness, options: { token?: string | null; accept?: string; url?: string } = {}) =>
  fetch(options.url ?? `${h.url}/metrics`, {
    headers: {
      ...(options.token === null ? {} : { authorization: `Bearer ${options.token ?? TOKEN}` }),
      ...(options.accept ? { accept: options.accept } : {}),
    },
  });

/** The value of one series in a text exposition, or null when it is not there. */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const [series, value] = [line.slice(0, line.lastIndexOf(' ')), line.slice(line.lastIndexOf(' ') + 1)];
    if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) return Number(value);
  }
  return null;
}

/** `promtool check metrics`, Prometheus' own linter of an exposition: its complaints, or '' when it has none. */
function promtool(text: string): string {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
  if (run.error) throw run.error;
  return `${run.stdout}${run.stderr}`.trim();
}

describe('Prometheus metrics', () => {
  const suite = gameService({ ...FAST_SUPERVISION, metricsToken: TOKEN, playersPollMs: 200 });

  it('are off without GARRISON_METRICS_TOKEN, and refuse a scrape without the token', async () => {
    const off = await startHarness();
    try {
      const res = await scrape(off);
      assert.equal(res.status, 404);
      assert.deepEqual((await off.api('GET', '/system/integrations', { token: off.adminToken })).body.data, {
        metrics: { enabled: false, path: '/metrics', address: null },
      });
      assert.match(((await res.json()) as Failure).error.message, /GARRISON_METRICS_TOKEN/);
    } finally {
      await off.close();
    }
    for (const token of [null, 'wrong-token-0123456789']) {
      const res = await scrape(suite.h, { token });
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as Failure).error.code, 'UNAUTHORIZED');
    }
  });

  it(
    "expose a running game's state, players, process and RCon health, never a player's name or address, " + 'in a form promtool accepts',
    async () => {
      const s = await runningGameServer(suite.h, suite.fake);
      try {
        await suite.h.api('POST', `/servers/${s.id}/rcon/command`, {
          token: suite.h.adminToken,
          body: { command: `testkit.join Zed<Metrics> ${GUID} 10.9.8.7` },
        });
        await suite.h.api('GET', `/servers/${s.id}`, { token: suite.h.viewerToken });
        const id = String(s.id);
        const text = await waitFor(
          async () => {
            const body = await (await scrape(suite.h)).text();
            return (
              sample(body, 'garrison_server_players', { server_id: id }) === 1 &&
              sample(body, 'garrison_rcon_connected', { server_id: id }) === 1 &&
              body
            );
          },
          { what: 'one player and RCon connected in the metrics' },
        );
        assert.equal(promtool(text), '', 'promtool check metrics has nothing to say');
        assert.equal(sample(text, 'garrison_server_up', { server_id: id, game: 'gamea' }), 1);
        assert.equal(sample(text, 'garrison_server_state', { server_id: id, state: 'running' }), 1);
        assert.equal(sample(text, 'garrison_server_state', { server_id: id, state: 'stopped' }), 0);
        assert.ok(sample(text, 'garrison_server_player_slots', { server_id: id })! > 0);
        assert.ok(sample(text, 'garrison_server_memory_bytes', { server_id: id })! > 1_000_000);
        assert.ok(sample(text, 'garrison_server_cpu_seconds_total', { server_id: id })! >= 0);
        assert.ok(Math.abs(sample(text, 'garrison_server_start_time_seconds', { server_id: id })! - Date.now() / 1000) < 600);
        assert.ok(sample(text, 'garrison_rcon_command_duration_seconds_count', { server_id: id, result: 'ok' })! >= 1);
        assert.ok(
          sample(text, 'garrison_http_request_duration_seconds_count', {
            route: '/api/servers/:server_id',
            method: 'GET',
            status_class: '2xx',
          })! >= 1,
          'the route as its template',
        );
        assert.match(text, /^garrison_process_resident_memory_bytes \d+/m);
        assert.match(text, /^garrison_process_cpu_seconds_total \d/m);
        assert.doesNotMatch(text, /garrison_process_process_/, 'the prefix once');
        assert.equal(sample(text, 'garrison_server_info', { server_id: id, name: String(s.name), game: 'gamea' }), 1);
        assert.match(text, /^garrison_job_runs_total\{job="players\.poll",result="ok"\} \d+/m, 'jobs by kind, not by server');
        for (const secret of ['Zed', GUID, '10.9.8.7', TOKEN]) assert.ok(!text.includes(secret), `${secret} is not in the metrics`);
      } finally {
        await killGames(suite.h);
      }
    },
  );

  it('count restarts by reason, and speak OpenMetrics when asked without changing the text format', async () => {
    const s = await runningGameServer(suite.h, suite.fake, { auto_restart: true, max_restarts: 3 });
    const id = String(s.id);
    try {
      assert.equal((await suite.h.api('POST', `/servers/${s.id}/restart`, { token: suite.h.adminToken })).status, 200);
      await statusBecomes(suite.h, s.id, 'running');
      await suite.h.api('POST', `/servers/${s.id}/rcon/command`, { token: suite.h.adminToken, body: { command: 'testkit.crash' } });
      const text = await waitFor(
        async () => {
          const body = await (await scrape(suite.h)).text();
          return sample(body, 'garrison_server_restarts_total', { server_id: id, reason: 'crash' }) === 1 && body;
        },
        { what: 'the crash counted' },
      );
      assert.equal(sample(text, 'garrison_server_restarts_total', { server_id: id, reason: 'manual' }), 1);

      const open = await scrape(suite.h, { accept: 'application/openmetrics-text; version=1.0.0,text/plain;version=0.0.4;q=0.5' });
      assert.match(open.headers.get('content-type')!, /^application\/openmetrics-text; version=1\.0\.0/);
      const openText = await open.text();
      assert.match(openText, /# EOF\n$/);
      // promtool reads only the text format; the real Prometheus below scrapes OpenMetrics (its first choice).
      assert.match(openText, /^# TYPE garrison_server_restarts counter$/m);
      assert.match(openText, /^garrison_server_restarts_total\{server_id="\d+",reason="crash"\} 1$/m);
      const again = await scrape(suite.h);
      assert.match(again.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
      assert.match(await again.text(), /^# TYPE garrison_server_restarts_total counter$/m, 'the counter keeps its name in the text format');
    } finally {
      await killGames(suite.h);
    }
  });

  it('are scraped by a real Prometheus, which answers a query for the players of a running game', async () => {
    const s = await runningGameServer(suite.h, suite.fake);
    const dir = await mkdtemp(join(tmpdir(), 'garrison-prometheus-'));
    let prometheus: ChildProcess | null = null;
    try {
      await suite.h.api('POST', `/servers/${s.id}/rcon/command`, {
        token: suite.h.adminToken,
        body: { command: `testkit.join Ann ${GUID} 10.0.0.1` },
      });
      await suite.h.api('POST', `/servers/${s.id}/rcon/command`, {
        token: suite.h.adminToken,
        body: { command: `testkit.join Bo ${'e'.repeat(32)} 10.0.0.2` },
      });
      const port = await freePort();
      await writeFile(
        join(dir, 'prometheus.yml'),
        [
          'global: { scrape_interval: 1s, evaluation_interval: 1s }',
          'scrape_configs:',
          '  - job_name: garrison',
          `    authorization: { credentials: ${TOKEN} }`,
          `    static_configs: [{ targets: ['${new URL(suite.h.url).host}'] }]`,
        ].join('\n'),
      );
      prometheus = spawn(
        'prometheus',
        [
          `--config.file=${join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: 'ignore' },
      );
      const query = `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(`garrison_server_players{server_id="${s.id}"}`)}`;
      const value = await waitFor(
        async () => {
          const answer = (await fetch(query)
            .then((r) => r.json())
            .catch(() => null)) as { data?: { result?: { metric: Record<string, string>; value: [number, string] }[] } } | null;
          const first = answer?.data?.result?.[0];
          return first?.value[1] === '2' && first;
        },
        { timeoutMs: 60_000, what: 'Prometheus to answer 2 players' },
      );
      assert.equal(value.metric.job, 'garrison');
      assert.equal(value.metric.game, 'gamea');

      // The Grafana dashboard in docs/: every query is one Prometheus takes, over series that exist.
      const dashboard = JSON.parse(await readFile(new URL('../../../docs/grafana/garrison-dashboard.json', import.meta.url), 'utf8')) as {
        panels: { title: string; targets: { expr: string }[] }[];
      };
      const exposed = await (await scrape(suite.h)).text();
      for (const panel of dashboard.panels) {
        for (const { expr } of panel.targets) {
          const promql = expr.replaceAll('$server', '.*');
          const answer = (await (await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`)).json()) as {
            status: string;
            error?: string;
          };
          assert.equal(answer.status, 'success', `${panel.title}: ${promql} — ${answer.error}`);
          for (const name of promql.match(/garrison_[a-z_]+/g) ?? []) {
            assert.match(
              exposed,
              new RegExp(`^${name.replace(/_(bucket|count|sum)$/, '')}(_bucket|_count|_sum)?[{ ]`, 'm'),
              `${panel.title}: ${name} is exposed`,
            );
          }
        }
      }
    } finally {
      prometheus?.kill('SIGKILL');
      await killGames(suite.h);
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('Prometheus metrics on an address of their own', () => {
  let h: Harness;
  let port: number;
  before(async () => {
    port = await freePort();
    h = await startHarness({ metricsToken: TOKEN, metricsAddress: `127.0.0.1:${port}` });
  });
  after(() => h?.close());

  it('are served there and not on the API port', async () => {
    const integrations = await h.api('GET', '/system/integrations', { token: h.adminToken });
    assert.deepEqual(integrations.body.data, { metrics: { enabled: true, path: '/metrics', address: `127.0.0.1:${port}` } });
    assert.equal((await h.api('GET', '/system/integrations', { token: h.viewerToken })).status, 403, 'for admins');
    const there = await scrape(h, { url: `http://127.0.0.1:${port}/metrics` });
    assert.equal(there.status, 200);
    assert.match(await there.text(), /^garrison_websocket_clients 0$/m);
    const here = await scrape(h);
    assert.equal(here.status, 404);
    assert.match(((await here.json()) as Failure).error.message, /GARRISON_METRICS_ADDRESS/);
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/servers`)).status, 404, 'nothing but the metrics there');
  });
});
