import { useRef, useState } from 'preact/hooks';
import type { ResponseOf, Endpoints } from '@garrison/sdk';
import { ServerListItem } from '@garrison/core';
import { client, isAdmin } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { useLiveState } from '../components/live-state.js';
import { ConfirmButton } from '../components/confirm.js';
import { Figure, cpuText, memoryText } from '../components/figures.js';
import { Warnings, connectAddress, playersOf, uptimeText, useMinuteClock } from '../components/glance.js';
import { RUNNING, ServerActions } from '../components/server-actions.js';
import { useLiveEvents } from '../live.js';
import { serverChanges, type ServerChange } from '../components/server-changes.js';
import { CreateServer } from './create-server.js';
import { lazy } from '../components/lazy.js';

// The import dialog loads when first opened (web README, Bundle size).
const ImportServer = lazy(() => import('./import-server.js').then((m) => m.ImportServer));

type ServerItem = ResponseOf<Endpoints['listServers']>[number];
/** A created server as the list holds it: its record without what is shown once (credentials, a shared installation). */
const listed = (created: ServerItem & Record<string, unknown>): ServerItem => {
  const item = Object.fromEntries(Object.keys(ServerListItem.properties).map((key) => [key, created[key]])) as ServerItem;
  return { ...item, warnings: item.warnings.filter((w) => w !== 'shares_installation') };
};

export function Dashboard() {
  const admin = isAdmin();
  // A live change that arrives while the list loads is applied to it too (useLiveState).
  const { state: servers, apply, error, reload } = useLiveState('servers:list', () => client.servers.list({ limit: 500 }));
  const action = useAction();
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const lastReload = useRef(0);
  const now = useMinuteClock();

  // Live figures over the WebSocket, never by polling: the rate limit is per token.
  const patch = (id: number, change: ServerChange) => {
    // A server not listed yet was made elsewhere. At most one reload every 2 s, whatever the events:
    // the rate limit counts every request.
    if (servers && !servers.some((s) => s.id === id) && Date.now() - lastReload.current > 2_000) {
      lastReload.current = Date.now();
      reload();
    }
    apply((list) => list.map((s) => (s.id === id ? change(s) : s)));
  };
  // What changed before the subscription, or while it was down, is read again by the cache (live.ts).
  useLiveEvents(null, serverChanges(patch));

  const remove = (server: ServerItem) =>
    action.run(async () => {
      await client.servers.delete(server.id);
      apply((list) => list.filter((s) => s.id !== server.id));
    });

  return (
    <section aria-labelledby="servers-title">
      <div class="section-head">
        <h1 id="servers-title">Servers</h1>
        {admin && (
          <div class="toolbar">
            <button type="button" class="quiet" onClick={() => setImporting(true)}>
              Import existing server
            </button>
            <button type="button" onClick={() => setCreating(true)}>
              New server
            </button>
          </div>
        )}
      </div>
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {creating && (
        <CreateServer
          onClose={() => setCreating(false)}
          onCreated={(created) => apply((list) => [...list.filter((x) => x.id !== created.id), listed(created)])}
        />
      )}
      {importing && (
        <ImportServer
          onClose={() => setImporting(false)}
          onImported={(made) => apply((list) => [...list.filter((x) => x.id !== made.id), listed(made)])}
        />
      )}
      {servers && servers.length > 0 && <Totals servers={servers} />}
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
            {s.hostname && s.hostname !== s.name && <p class="hostname small">{s.hostname}</p>}
            <NodeOf server={s} />
            <Warnings warnings={s.warnings} />
            <dl class="figures">
              <Figure label="Players" value={playersOf(s)} />
              <Figure label="CPU" value={cpuText(s.cpu_percent)} />
              <Figure label="Memory" value={memoryText(s.ram_mb)} />
              <Figure label="Uptime" value={uptimeText(s.status, s.started_at, now)} />
            </dl>
            <p class="connect" data-testid="connect">
              Connect <code>{connectAddress(s)}</code>
              {s.mission && (
                <>
                  {' · '}Mission <span data-testid="mission">{s.mission}</span>
                </>
              )}
            </p>
            {admin && (
              <ServerActions server={s} run={action.run}>
                {!RUNNING.has(s.status) && s.status !== 'unknown' && (
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

/** The node a server runs on, and that it is unreachable while its node is offline (its game keeps running). */
function NodeOf({ server }: { server: ServerItem }) {
  const offline = server.status === 'unknown' || !server.node_online;
  return (
    <p class="node small" data-testid="node">
      Node <a href="#/nodes">{server.node_id}</a>
      {offline && (
        <span
          class="badge"
          title="The node is offline: its game keeps running; the server answers again when the node is back"
          data-testid="node-offline"
        >
          {' '}
          node offline
        </span>
      )}
    </p>
  );
}

/** The whole community at a glance: how many servers run, how many people play. */
function Totals({ servers }: { servers: ServerItem[] }) {
  const running = servers.filter((s) => s.status === 'running').length;
  const players = servers.reduce((sum, s) => sum + (s.player_count ?? 0), 0);
  const attention = servers.filter((s) => s.warnings.length > 0).length;
  return (
    <dl class="totals" aria-label="Totals">
      <div>
        <dt>Running</dt>
        <dd data-testid="total-running">
          {running} of {servers.length}
        </dd>
      </div>
      <div>
        <dt>Players online</dt>
        <dd data-testid="total-players">{players}</dd>
      </div>
      <div>
        <dt>Need attention</dt>
        <dd data-testid="total-attention">{attention}</dd>
      </div>
    </dl>
  );
}
