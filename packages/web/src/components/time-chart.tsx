import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

interface Props {
  title: string;
  unit: string;
  times: number[];
  values: (number | null)[];
  /** The period shown, in seconds since the epoch: the whole of it, empty where there is no sample. */
  from: number;
  to: number;
  /** Whole numbers (players): no fractions on the axis or in the caption. */
  whole?: boolean;
}

/** Steps between the ticks of a whole-number axis. */
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

/** A small line chart over time (seconds since the epoch), sized to its container. */
export function TimeChart({ title, unit, times, values, from, to, whole = false }: Props) {
  const period = useRef({ from, to });
  period.current = { from, to };
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  useEffect(() => {
    const el = box.current!;
    chart.current = new uPlot(
      {
        width: el.clientWidth || 300,
        height: 160,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: true, range: () => [period.current.from, period.current.to] },
          y: { range: (_u, min, max) => [Math.min(0, min), whole ? Math.max(Math.ceil(max * 1.1), 1) : Math.max(max * 1.1, 1)] },
        },
        series: [{}, { label: title, stroke: '#2f6fde', fill: 'rgba(47, 111, 222, 0.12)', width: 1.5, spanGaps: false }],
        axes: [
          { stroke: '#667' },
          {
            stroke: '#667',
            size: 56,
            ...(whole ? { incrs: WHOLE_STEPS } : {}),
            values: (_u, ticks) => ticks.map((t) => `${whole ? Math.round(t) : +t.toFixed(1)}${unit}`),
          },
        ],
      },
      [times, values],
      el,
    );
    const resize = new ResizeObserver(() => chart.current?.setSize({ width: el.clientWidth, height: 160 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.current?.destroy();
    };
  }, []);
  useEffect(() => chart.current?.setData([times, values]), [times, values, from, to]);
  const last = values.length ? values[values.length - 1] : null;
  return (
    <figure class="chart">
      <figcaption>
        {title}
        <span class="small">
          {last === null || last === undefined ? '' : ` · now ${whole ? Math.round(last) : +last.toFixed(1)}${unit}`}
        </span>
      </figcaption>
      <div ref={box} role="img" aria-label={`${title} over time`} data-from={Math.round(from)} data-to={Math.round(to)} />
    </figure>
  );
}
