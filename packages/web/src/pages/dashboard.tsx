import { useEffect, useRef, useState } from 'preact/hooks';
import type { ResponseOf, Endpoints } from '@garrison/sdk';
import { client, session } from '../session.js';
import { Problem, useAction, useRetryingLoad } from '../components/problem.js';
import { ConfirmButton } from '../components/confirm.js';
import { Figure, cpuText, memoryText } from '../components/figures.js';
import { RUNNING, ServerActions } from '../components/server-actions.js';
import { useLiveEvents } from '../live.js';
import { CreateServer } from './create-server.js';

type ServerItem = ResponseOf<Endpoints['listServers']>[number];
type Change = { id: number; change: Partial<ServerItem> };

export function Dashboard() {
  const admin = session.value?.role === 'admin';
  const [servers, setServers] = useState<ServerItem[] | null>(null);
  // Live changes that arrive while a list loads are replayed on it in order: the list may have been read
  // before them. Replaying one the list already holds changes nothing.
  const loading = useRef(new Set<Change[]>());
  const { data, error, reload } = useRetryingLoad(async () => {
    const arrived: Change[] = [];
    loading.current.add(arrived);
    try {
      const list = await client.servers.list({ limit: 500 });
      return arrived.reduce((all, { id, change }) => all.map((s) => (s.id === id ? { ...s, ...change } : s)), list);
    } finally {
      loading.current.delete(arrived);
    }
  }, []);
  const action = useAction();
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    if (data) setServers(data);
  }, [data]);
  // The servers on the page, for the live events: one of a server not listed yet means it was made elsewhere.
  const known = useRef<Set<number> | null>(null);
  known.current = servers && new Set(servers.map((s) => s.id));
  const lastReload = useRef(0);

  // Live figures over the WebSocket, never by polling: the rate limit is per token.
  const patch = (id: number, change: Partial<ServerItem>) => {
    for (const arrived of loading.current) arrived.push({ id, change });
    if (!known.current) return; // the first list is loading, and gets the change replayed
    if (!known.current.has(id)) {
      // At most one reload every 2 s, whatever the events: the rate limit counts every request.
      if (Date.now() - lastReload.current > 2_000) {
        lastReload.current = Date.now();
        reload();
      }
      return;
    }
    setServers((list) => list && list.map((s) => (s.id === id ? { ...s, ...change } : s)));
  };
  useLiveEvents(null, {
    server_status: ({ server_id, data }) => {
      const stopped = !RUNNING.has(data.status);
      patch(server_id, { status: data.status, pid: data.pid, started_at: data.started_at, ...(stopped ? { cpu_percent: null, ram_mb: null, player_count: null } : {}) });
    },
    metrics: ({ server_id, data }) => patch(server_id, { cpu_percent: data.cpu_percent, ram_mb: data.ram_mb }),
    players: ({ server_id, data }) => patch(server_id, { player_count: data.count }),
    connected: () => reload(), // what changed before the subscription, or while it was down
  });

  const remove = (server: ServerItem) =>
    action.run(async () => {
      await client.servers.delete(server.id);
      setServers((list) => list && list.filter((s) => s.id !== server.id));
    });

  return (
    <section aria-labelledby="servers-title">
      <div class="section-head">
        <h1 id="servers-title">Servers</h1>
        {admin && (
          <button type="button" onClick={() => setCreating(true)}>
            New server
          </button>
        )}
      </div>
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {creating && <CreateServer onClose={() => setCreating(false)} onCreated={(s) => setServers((list) => [...(list ?? []).filter((x) => x.id !== s.id), s])} />}
      {servers === null && !error && <p>Loading…</p>}
      {servers?.length === 0 && <p class="empty">No servers yet.{admin ? ' Create one with “New server”.' : ''}</p>}
      <ul class="servers">
        {servers?.map((s) => (
          <li key={s.id} class="server" data-server-id={s.id}>
            <div class="server-head">
              <a href={`#/servers/${s.id}`} class="server-name">
                {s.name}
              </a>
              <span class={`status status-${s.status}`} data-testid="status">
                {s.status}
              </span>
            </div>
            <dl class="figures">
              <Figure label="Players" value={s.player_count} />
              <Figure label="CPU" value={cpuText(s.cpu_percent)} />
              <Figure label="Memory" value={memoryText(s.ram_mb)} />
              <Figure label="Port" value={s.game_port} />
            </dl>
            {admin && (
              <ServerActions server={s} run={action.run}>
                {!RUNNING.has(s.status) && (
                  <ConfirmButton
                    label="Delete"
                    title={`Delete ${s.name}?`}
                    message="The server's record, settings and history are removed. The game's own files stay where they are."
                    onConfirm={() => remove(s)}
                  />
                )}
              </ServerActions>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
