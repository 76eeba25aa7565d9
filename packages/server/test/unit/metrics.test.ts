import { unitContainer, type UnitContainer } from './container.js';
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, SYSTEM_ACTOR } from '@garrison/core';
import { ServerService } from '../../src/servers/service.js';
import { MetricsService } from '../../src/metrics/service.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('metrics history: downsampling and retention', () => {
  let u: UnitContainer;
  let metrics: MetricsService;
  let serverId: number;
  /** Samples `everyMs` apart, ending now: CPU counting up from 0, players 0, 1, 2, 0, 1, 2… */
  const sample = (count: number, everyMs: number) =>
    u.db.knex.batchInsert(
      'metrics',
      Array.from({ length: count }, (_, i) => ({
        server_id: serverId,
        timestamp: new Date(u.clock.now() - (count - 1 - i) * everyMs).toISOString(),
        cpu_percent: i,
        ram_mb: 100,
        player_count: i % 3,
      })),
      200,
    );
  beforeEach(async () => {
    u = await unitContainer({ settings: { metricsRetentionHours: 24 } });
    metrics = u.resolve(MetricsService);
    serverId = (
      await u.resolve(ServerService).create({ name: 'Alpha', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2302 }, SYSTEM_ACTOR)
    ).id;
  });
  afterEach(() => u.close());

  it("answers the last hour's samples as they are while they are few", async () => {
    await sample(130, 30_000); // 65 minutes at 30 s
    const points = await metrics.history(serverId, {});
    assert.equal(points.length, 121, 'the samples of the last hour, both ends included');
    assert.deepEqual(points.at(-1), {
      timestamp: new Date(u.clock.now()).toISOString(),
      cpu_percent: 129,
      ram_mb: 100,
      player_count: 129 % 3,
    });
  });

  it("averages CPU and keeps the players' peak in each bucket of the resolution asked for", async () => {
    await sample(6, 10_000); // one minute's samples: 11:59:10 … 12:00:00
    const points = await metrics.history(serverId, { from: new Date(u.clock.now() - 5 * MINUTE).toISOString(), resolution: 1 });
    assert.deepEqual(points, [
      { timestamp: new Date(u.clock.now() - MINUTE).toISOString(), cpu_percent: 2, ram_mb: 100, player_count: 2 },
      { timestamp: new Date(u.clock.now()).toISOString(), cpu_percent: 5, ram_mb: 100, player_count: 2 },
    ]);
  });

  it('picks the smallest whole number of minutes that keeps a long window within 1000 points', async () => {
    await sample(2880, 30_000); // a day at 30 s
    const from = new Date(u.clock.now() - 24 * HOUR).toISOString();
    const points = await metrics.history(serverId, { from });
    assert.ok(points.length <= 1000 && points.length > 700, `${points.length} points`);
    const step = Date.parse(points[1].timestamp) - Date.parse(points[0].timestamp);
    assert.equal(step, 2 * MINUTE, '24 h in 1000 points: 1.44 min, so 2');
  });

  it('refuses an unknown server, and prunes samples past the retention', async () => {
    await assert.rejects(metrics.history(serverId + 1, {}), (err: ApiError) => err.code === 'NOT_FOUND');
    await sample(30, HOUR); // 30 hours, one an hour
    const pruned = u.finished('metrics.prune');
    metrics.start(); // the first prune runs at once
    await pruned;
    metrics.stop();
    const kept = await metrics.history(serverId, { from: new Date(u.clock.now() - 48 * HOUR).toISOString() });
    assert.equal(kept.length, 25, 'the last 24 hours and the sample on the cutoff');
  });
});
