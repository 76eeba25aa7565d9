import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { downsample } from '../src/metrics/downsample.js';

const at = (minute: number, second: number, cpu: number, ram: number, players: number | null) => ({
  timestamp: new Date(Date.UTC(2026, 10, 25, 20, minute, second)).toISOString(),
  cpu_percent: cpu,
  ram_mb: ram,
  player_count: players,
});

describe('metrics history per resolution', () => {
  it('averages CPU and memory per bucket, and keeps the most players seen, a whole number', () => {
    const points = downsample(
      [at(0, 0, 10, 100, 1), at(0, 20, 20, 200, 0), at(0, 40, 30, 300, null), at(1, 0, 5, 50, null), at(1, 30, 7, 70, null)],
      1,
    );
    assert.deepEqual(points, [
      { timestamp: '2026-11-25T20:00:00.000Z', cpu_percent: 20, ram_mb: 200, player_count: 1 },
      { timestamp: '2026-11-25T20:01:00.000Z', cpu_percent: 6, ram_mb: 60, player_count: null },
    ]);
    const fiveMinutes = downsample([at(0, 0, 1, 1, 3), at(2, 0, 1, 1, 4), at(4, 59, 1, 1, 2)], 5);
    assert.equal(fiveMinutes.length, 1);
    assert.equal(fiveMinutes[0].player_count, 4);
  });
});
