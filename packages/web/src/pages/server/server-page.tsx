import { useEffect, useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { useLiveState } from '../../components/live-state.js';
import { ServerActions } from '../../components/server-actions.js';
import { serverChanges } from '../../components/server-changes.js';
import { Figure, cpuText, memoryText } from '../../components/figures.js';
import { useLiveEvents } from '../../live.js';
import { EditServer } from './edit-server.js';
import { ConsoleTab } from './console-tab.js';
import { PlayersTab } from './players-tab.js';
import { BansTab } from './bans-tab.js';
import { MissionsTab } from './missions-tab.js';
import { ModsTab } from './mods-tab.js';
import { LogFilesTab } from './log-files-tab.js';
import { AuditTab } from './audit-tab.js';
import { ConfigTab } from './config-tab.js';
import { ProcessesPanel } from './processes-panel.js';
import { lazy } from '../../components/lazy.js';

// The charts library is the console's largest part: it loads when the metrics tab is first opened.
const MetricsTab = lazy(() => import('./metrics-tab.js').then((m) => m.MetricsTab));

export type ServerRecord = ResponseOf<Endpoints['getServer']>;
export interface TabProps {
  server: ServerRecord;
}

/** The server page's tabs, each at its own address (`#/servers/3/missions`), so that a link or a reload keeps it. */
const TABS = [
  { id: 'console', label: 'Console', Tab: ConsoleTab },
  { id: 'players', label: 'Players', Tab: PlayersTab },
  { id: 'bans', label: 'Bans', Tab: BansTab },
  { id: 'missions', label: 'Missions', Tab: MissionsTab },
  { id: 'mods', label: 'Mods', Tab: ModsTab },
  { id: 'config', label: 'Config', Tab: ConfigTab },
  { id: 'metrics', label: 'Metrics', Tab: MetricsTab },
  { id: 'logfiles', label: 'Log files', Tab: LogFilesTab },
  { id: 'audit', label: 'Audit', Tab: AuditTab },
] as const;

export function ServerPage({ id, tab }: { id: number; tab: string }) {
  const admin = isAdmin();
  const { state: server, apply, error } = useLiveState(`server:${id}:`, () => client.servers.get(id));
  const action = useAction();
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (server) document.title = `${server.name} · Garrison`;
  }, [server?.name]);

  useLiveEvents(id, serverChanges((_, change) => apply((s) => ({ ...s, ...change }))));

  if (!server) return error ? <Problem error={error} /> : <p>Loading…</p>;
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  return (
    <section aria-labelledby="server-title" class="server-page">
      <p class="crumbs">
        <a href="#/">Servers</a> /
      </p>
      <div class="section-head">
        <h1 id="server-title">{server.name}</h1>
        <span class={`status status-${server.status}`} data-testid="status">
          {server.status}
        </span>
      </div>
      {server.description && <p class="description">{server.description}</p>}
      <dl class="figures wide-figures">
        <Figure label="Players" value={server.player_count} />
        <Figure label="CPU" value={cpuText(server.cpu_percent)} />
        <Figure label="Memory" value={memoryText(server.ram_mb)} />
        <Figure label="Game port" value={server.game_port} />
        <Figure label="RCon port" value={server.rcon_port} />
        <Figure label="Game" value={server.game_type} />
        {server.headless_clients > 0 && <Figure label="Headless clients" value={server.headless_clients} />}
      </dl>
      <ProcessesPanel server={server} />
      {admin && (
        <ServerActions server={server} run={action.run}>
          <button type="button" class="quiet" onClick={() => setEditing(true)}>
            Edit
          </button>
        </ServerActions>
      )}
      <Problem error={action.error} onDismiss={action.dismiss} />
      {editing && <EditServer server={server} onClose={() => setEditing(false)} onSaved={(s) => apply((old) => ({ ...old, ...s }))} />}
      <nav class="tabs" aria-label="Server sections">
        {TABS.map((t) => (
          <a key={t.id} href={`#/servers/${id}/${t.id}`} aria-current={t.id === current.id ? 'page' : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      <div class="tab-panel">
        <current.Tab key={`${id}-${current.id}`} server={server} />
      </div>
    </section>
  );
}
