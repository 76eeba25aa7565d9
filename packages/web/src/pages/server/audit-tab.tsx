import { useEffect, useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client } from '../../session.js';
import { Problem, useRetryingLoad } from '../../components/problem.js';
import { Pager } from '../../components/pager.js';
import { useLiveEvents } from '../../live.js';
import type { TabProps } from './server-page.js';

type AuditEvent = ResponseOf<Endpoints['listServerEvents']>['events'][number];
const PAGE = 50;

/** Who did what to the server, and what the supervisor did by itself; new entries arrive live on the first page. */
export function AuditTab({ server }: TabProps) {
  const [offset, setOffset] = useState(0);
  const { data, error } = useRetryingLoad(() => client.servers.events(server.id, { limit: PAGE, offset }), [server.id, offset]);
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  useEffect(() => {
    if (data) (setEvents(data.events), setTotal(data.total));
  }, [data]);
  useLiveEvents(server.id, {
    event: ({ server_id, data: entry }) => {
      if (server_id !== server.id || offset !== 0) return;
      setEvents((all) => (all.some((e) => e.id === entry.id) ? all : [entry, ...all].slice(0, PAGE)));
      setTotal((t) => (t === null ? t : t + 1));
    },
  });

  return (
    <div>
      <Problem error={error} />
      {data && events.length === 0 && <p class="empty">Nothing recorded yet.</p>}
      {events.length > 0 && (
        <table class="table">
          <caption class="sr-only">Audit trail of {server.name}</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">Who</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
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
      <Pager offset={offset} limit={PAGE} total={total} onChange={setOffset} />
    </div>
  );
}

const detail = (d: Record<string, unknown>) =>
  Object.entries(d)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
