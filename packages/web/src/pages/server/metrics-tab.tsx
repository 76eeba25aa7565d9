import { useMemo, useState } from 'preact/hooks';
import { client } from '../../session.js';
import { Problem } from '../../components/problem.js';
import { useLiveState } from '../../components/live-state.js';
import { TimeChart } from '../../components/time-chart.js';
import { useLiveEvents } from '../../live.js';
import type { TabProps } from './server-page.js';

/** How far back, and how many minutes each stored point averages. */
const RANGES = [
  { id: '1h', label: 'Last hour', minutes: 60, resolution: 1 },
  { id: '24h', label: 'Last day', minutes: 24 * 60, resolution: 15 },
  { id: '7d', label: 'Last week', minutes: 7 * 24 * 60, resolution: 120 },
];
/** Live points kept beyond the stored ones: a day of samples at most. */
const MAX_POINTS = 20_000;

/** CPU, memory and players over time: the stored points, then the live samples as they come. */
export function MetricsTab({ server }: TabProps) {
  const [rangeId, setRangeId] = useState('1h');
  const range = RANGES.find((r) => r.id === rangeId)!;
  const { state, apply, loaded, error } = useLiveState(`metrics:${server.id}:${rangeId}`, () =>
    client.metrics.get(server.id, { from: new Date(Date.now() - range.minutes * 60_000).toISOString(), resolution: range.resolution }),
  );
  const points = state ?? [];
  useLiveEvents(server.id, {
    metrics: ({ data: point }) => {
      // Only what is newer than the last point: a sample may also be in a read that was under way.
      apply((all) =>
        all.length && Date.parse(all[all.length - 1].timestamp) >= Date.parse(point.timestamp)
          ? all
          : [...all.slice(all.length >= MAX_POINTS ? 1 : 0), point],
      );
    },
  });

  // The whole period up to now, moved on with each sample (a live point arrives every few seconds).
  const period = useMemo(() => {
    const to = Date.now() / 1000;
    return { from: to - range.minutes * 60, to };
  }, [points, rangeId]);
  const series = useMemo(() => {
    const times = points.map((p) => Date.parse(p.timestamp) / 1000);
    return {
      times,
      cpu: points.map((p) => p.cpu_percent),
      ram: points.map((p) => p.ram_mb),
      players: points.map((p) => p.player_count),
    };
  }, [points]);

  return (
    <div>
      <div class="toolbar">
        <label>
          Period
          <select value={rangeId} onChange={(e) => setRangeId(e.currentTarget.value)}>
            {RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Problem error={error} />
      {loaded && points.length === 0 && <p class="empty">No samples in this period: they are taken while the server runs.</p>}
      <div class="charts">
        <TimeChart title="CPU" unit=" %" times={series.times} values={series.cpu} from={period.from} to={period.to} />
        <TimeChart title="Memory" unit=" MB" times={series.times} values={series.ram} from={period.from} to={period.to} />
        <TimeChart title="Players" unit="" times={series.times} values={series.players} from={period.from} to={period.to} whole />
      </div>
    </div>
  );
}
