import { useState } from 'preact/hooks';
import { client } from '../../session.js';
import { Problem } from '../../components/problem.js';
import { useLiveState } from '../../components/live-state.js';
import { Pager } from '../../components/pager.js';
import { useLiveEvents } from '../../live.js';
import type { TabProps } from './server-page.js';
import { TableHead } from '../../components/table-head.js';

const PAGE = 50;

/** Who did what to the server, and what the supervisor did by itself; new entries arrive live on the first page. */
export function AuditTab({ server }: TabProps) {
  const [offset, setOffset] = useState(0);
  const {
    state: page,
    apply,
    loaded,
    error,
  } = useLiveState(`audit:${server.id}:${offset}`, () => client.servers.events(server.id, { limit: PAGE, offset }));
  const events = page?.events ?? [];
  useLiveEvents(server.id, {
    event: ({ data: entry }) => {
      if (offset !== 0) return;
      apply((p) => (p.events.some((e) => e.id === entry.id) ? p : { total: p.total + 1, events: [entry, ...p.events].slice(0, PAGE) }));
    },
  });

  return (
    <div>
      <Problem error={error} />
      {loaded && events.length === 0 && <p class="empty">Nothing recorded yet.</p>}
      {events.length > 0 && (
        <table class="table">
          <caption class="sr-only">Audit trail of {server.name}</caption>
          <TableHead columns={['When', 'What', 'Who', 'Detail']} />
          <tbody>
            {events.map((e) => (
              <tr key={e.id}>
                <td>{new Date(e.timestamp).toLocaleString()}</td>
                <td>{e.event_type.replace(/_/g, ' ')}</td>
                <td>{e.actor ?? 'supervisor'}</td>
                <td class="mono small">{detail(e.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager offset={offset} limit={PAGE} total={page?.total ?? null} onChange={setOffset} />
    </div>
  );
}

const detail = (d: Record<string, unknown>) =>
  Object.entries(d)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
