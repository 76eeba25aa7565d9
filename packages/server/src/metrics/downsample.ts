import type { MetricsPoint as MetricsPointSchema, Static } from '@garrison/core';

type MetricsPoint = Static<typeof MetricsPointSchema>;

const round = (n: number) => Math.round(n * 10) / 10;
const average = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Stored samples as one point per `minutes`: CPU and memory averaged; players the most seen in the
 * bucket, since a player count is a whole number (an average of 1 and 0 is nobody's count) and a peak is
 * what an admin looks for.
 */
export function downsample(rows: MetricsPoint[], minutes: number): MetricsPoint[] {
  const size = minutes * 60_000;
  const buckets = new Map<number, MetricsPoint[]>();
  for (const row of rows) {
    const key = Math.floor(Date.parse(row.timestamp) / size) * size;
    const bucket = buckets.get(key) ?? [];
    bucket.push(row);
    buckets.set(key, bucket);
  }
  return [...buckets].map(([key, points]) => {
    const players = points.flatMap((p) => (p.player_count === null ? [] : [Number(p.player_count)]));
    return {
      timestamp: new Date(key).toISOString(),
      cpu_percent: round(average(points.map((p) => Number(p.cpu_percent)))),
      ram_mb: round(average(points.map((p) => Number(p.ram_mb)))),
      player_count: players.length ? Math.max(...players) : null,
    };
  });
}

export { round };
