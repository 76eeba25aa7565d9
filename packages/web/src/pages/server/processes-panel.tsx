import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client } from '../../session.js';
import { Problem } from '../../components/problem.js';
import { useLiveState } from '../../components/live-state.js';
import { TableHead } from '../../components/table-head.js';
import { cpuText, memoryText } from '../../components/figures.js';
import { useLiveEvents } from '../../live.js';
import type { ServerRecord } from './server-page.js';

type ProcessRow = ResponseOf<Endpoints['listProcesses']>[number];

const label = (p: Pick<ProcessRow, 'role' | 'index'>) => (p.role === 'server' ? 'Server' : `Headless client ${p.index}`);

/**
 * The game's processes: the server and its headless clients, each with its state, kept live by
 * `server_status` (the server) and `process_status` (a headless client) events, their figures by
 * `metrics` events. Shown when the server
 * has headless clients, or had some still running.
 */
export function ProcessesPanel({ server }: { server: ServerRecord }) {
  const { state: processes, apply, error, reload } = useLiveState(`processes:${server.id}:`, () => client.servers.processes(server.id));
  useLiveEvents(server.id, {
    // Applied at once, then read again for the figures (CPU, memory) the event does not carry.
    process_status: ({ data }) => {
      reload();
      apply((list) => {
        const others = list.filter((p) => !(p.role === data.role && p.index === data.index));
        const old = list.find((p) => p.role === data.role && p.index === data.index);
        const row: ProcessRow = {
          cpu_percent: null,
          ram_mb: null,
          ...old,
          role: data.role,
          index: data.index,
          status: data.status,
          pid: data.pid,
          started_at: data.started_at,
          restart_count: data.restart_count,
        };
        return [...others, row].sort((a, b) => (a.role === b.role ? a.index - b.index : a.role === 'server' ? -1 : 1));
      });
    },
    server_status: () => reload(),
    // CPU and memory, live as the page's header: the server's sample, and each running headless client's.
    metrics: ({ data }) =>
      apply((list) =>
        list.map((p) => {
          const figures = p.role === 'server' ? data : data.headless?.find((h) => h.index === p.index && h.pid === p.pid);
          return figures ? { ...p, cpu_percent: figures.cpu_percent, ram_mb: figures.ram_mb } : p;
        }),
      ),
  });
  const headless = processes?.filter((p) => p.role === 'headless') ?? [];
  if (server.headless_clients === 0 && headless.length === 0) return null;
  const rows = processes && withExpected(processes, server);
  return (
    <section class="processes" aria-labelledby="processes-title">
      <h2 id="processes-title">Processes</h2>
      <Problem error={error} />
      {rows && (
        <table class="table">
          <TableHead columns={['Process', 'State', 'PID', 'Restarts', 'CPU', 'Memory']} />
          <tbody>
            {rows.map((p) => (
              <tr key={`${p.role}-${p.index}`} data-testid={`process-${p.role}-${p.index}`}>
                {/* data-label: the column's name, shown beside the value where the table is stacked (phone width) */}
                <td data-label="Process">{label(p)}</td>
                <td data-label="State">
                  <span class={`status status-${p.status}`}>{p.status}</span>
                </td>
                <td data-label="PID">{p.pid ?? '—'}</td>
                <td data-label="Restarts">{p.restart_count}</td>
                <td data-label="CPU">{cpuText(p.cpu_percent)}</td>
                <td data-label="Memory">{memoryText(p.ram_mb)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const idle = (role: ProcessRow['role'], index: number): ProcessRow => ({
  role,
  index,
  pid: null,
  status: 'stopped',
  started_at: null,
  restart_count: 0,
  cpu_percent: null,
  ram_mb: null,
});

/** The processes the service knows of, and a stopped row for each one the server will run but has not yet. */
function withExpected(processes: ProcessRow[], server: ServerRecord): ProcessRow[] {
  const has = (role: ProcessRow['role'], index: number) => processes.some((p) => p.role === role && p.index === index);
  const missing = [
    ...(has('server', 0) ? [] : [{ ...idle('server', 0), status: server.status }]),
    ...Array.from({ length: server.headless_clients }, (_, i) => i + 1)
      .filter((i) => !has('headless', i))
      .map((i) => idle('headless', i)),
  ];
  return [...processes, ...missing].sort((a, b) => (a.role === b.role ? a.index - b.index : a.role === 'server' ? -1 : 1));
}
