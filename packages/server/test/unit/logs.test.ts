import { unitContainer, type UnitContainer } from './container.js';
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, SYSTEM_ACTOR } from '@garrison/core';
import { ServerService } from '../../src/servers/service.js';
import { LogService } from '../../src/logs/service.js';

const DAY = 86_400_000;

describe('stored log lines: reading and retention', () => {
  let u: UnitContainer;
  let logs: LogService;
  let serverId: number;
  /** Lines as the collector stores them, `agesMs` before now (oldest first). */
  const logged = (agesMs: number[], level = 'info') =>
    u.db.knex('log_lines').insert(
      agesMs.map((age, i) => ({
        server_id: serverId,
        timestamp: new Date(u.clock.now() - age).toISOString(),
        level,
        message: `line ${i} ${level}`,
      })),
    );
  beforeEach(async () => {
    u = await unitContainer({ settings: { logRetentionDays: 7 } });
    logs = u.resolve(LogService);
    serverId = (
      await u.resolve(ServerService).create({ name: 'Alpha', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2302 }, SYSTEM_ACTOR)
    ).id;
  });
  afterEach(() => u.close());

  it('pages, filters by level, time and text, and clears', async () => {
    await logged([3 * DAY, 2 * DAY, DAY, 0]);
    await logged([DAY / 2], 'error');
    assert.equal((await logs.list(serverId, {})).total, 5);
    assert.deepEqual(
      (await logs.list(serverId, { level: 'error' })).logs.map((l) => l.message),
      ['line 0 error'],
    );
    assert.equal((await logs.list(serverId, { since: new Date(u.clock.now() - 1.5 * DAY).toISOString() })).total, 3);
    assert.deepEqual(
      (await logs.list(serverId, { search: 'line 1' })).logs.map((l) => l.message),
      ['line 1 info'],
    );
    assert.equal((await logs.list(serverId, { limit: 2 })).logs.length, 2);
    assert.equal(await logs.clear(serverId, SYSTEM_ACTOR), 5);
    await assert.rejects(logs.list(serverId + 1, {}), (err: ApiError) => err.code === 'NOT_FOUND');
  });

  it('forgets lines older than the retention, at start and every ten minutes after', async () => {
    await logged([8 * DAY, 7 * DAY - 60_000, DAY]);
    let pruned = u.finished('logs.prune-age');
    logs.start();
    await pruned;
    assert.deepEqual((await logs.list(serverId, {})).logs.map((l) => l.message).sort(), ['line 1 info', 'line 2 info']);

    pruned = u.finished('logs.prune-age');
    await u.clock.advance(10 * 60_000);
    await pruned;
    assert.deepEqual(
      (await logs.list(serverId, {})).logs.map((l) => l.message),
      ['line 2 info'],
      'the line a minute inside the retention has passed it',
    );
    await logs.stop();
  });
});
