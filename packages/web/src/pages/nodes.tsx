import { useEffect } from 'preact/hooks';
import { client, isAdmin } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { TableHead } from '../components/table-head.js';
import { useQuery } from '../cache/use-query.js';

/** "12 s ago", "3 min ago": how long since a node last said it was alive. */
function sinceText(iso: string | null, now: number): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 90) return `${seconds} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  return new Date(iso).toLocaleString();
}

/**
 * The Garrison instances (nodes) that run the servers: which are alive, which take new servers, and
 * how many servers each runs. A single instance is one node. Admins drain a node (no new servers
 * placed on it) before taking its host down.
 */
export function Nodes() {
  const { data, error, reload } = useQuery('nodes:', () => client.nodes.list());
  const action = useAction();
  const admin = isAdmin();
  useEffect(() => void (document.title = 'Nodes · Garrison'), []);
  const now = Date.now();

  return (
    <section aria-labelledby="nodes-title">
      <div class="section-head">
        <h1 id="nodes-title">Nodes</h1>
        <button type="button" class="quiet" onClick={() => reload()}>
          Refresh
        </button>
      </div>
      <p class="small">
        Each node is a Garrison instance on its own host; a server runs on one node, which keeps its files and processes. While a node is
        offline its servers show <em>unknown</em> and their games keep running.
      </p>
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {data && (
        <table class="table">
          <caption class="sr-only">Nodes</caption>
          <TableHead columns={['Node', 'State', 'Last heard', 'Servers', 'Events', 'Version', 'Address', ...(admin ? ['Actions'] : [])]} />
          <tbody>
            {data.map((n) => (
              <tr key={n.id} data-node-id={n.id}>
                <td>{n.id}</td>
                <td>
                  <span class={`status status-${n.online ? 'running' : 'error'}`} data-testid="node-state">
                    {n.online ? 'online' : 'offline'}
                  </span>
                  {n.draining && (
                    <span class="badge" title="No new servers are placed on this node" data-testid="draining">
                      draining
                    </span>
                  )}
                </td>
                <td>{sinceText(n.last_seen, now)}</td>
                <td>{n.server_count}</td>
                <td>{n.events_connected === null ? 'single instance' : n.events_connected ? 'connected' : 'NATS unreachable'}</td>
                <td>{n.version}</td>
                <td>
                  <code>{n.url}</code>
                </td>
                {admin && (
                  <td class="actions">
                    <button
                      type="button"
                      class="quiet"
                      aria-label={`${n.draining ? 'Undrain' : 'Drain'} ${n.id}`}
                      onClick={() => void action.run(() => client.nodes.update(n.id, { draining: !n.draining })).then(() => reload())}
                    >
                      {n.draining ? 'Undrain' : 'Drain'}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
