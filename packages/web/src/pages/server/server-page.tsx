import { useEffect, useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { useLiveState } from '../../components/live-state.js';
import { ServerActions } from '../../components/server-actions.js';
import { serverChanges } from '../../components/server-changes.js';
import { Figure, cpuText, memoryText } from '../../components/figures.js';
import { Warnings, connectAddress, playersOf } from '../../components/glance.js';
import { useLiveEvents } from '../../live.js';
import { EditServer } from './edit-server.js';
import { ConsoleTab } from './console-tab.js';
import { PlayersTab } from './players-tab.js';
import { BansTab } from './bans-tab.js';
import { MissionsTab } from './missions-tab.js';
import { ModsTab } from './mods-tab.js';
import { LogFilesTab } from './log-files-tab.js';
import { AuditTab } from './audit-tab.js';
import { SchedulesTab } from './schedules-tab.js';
import { BackupsTab } from './backups-tab.js';
import { ConfigTab } from './config-tab.js';
import { ProcessesPanel } from './processes-panel.js';
import { WorkshopTab } from './workshop-tab.js';
import { InstallTab } from './install-tab.js';
import { lazy } from '../../components/lazy.js';
import { can, missionLabel, useGame, type GameType } from '../../games.js';
import type { ComponentType } from 'preact';

// The charts library is the console's largest part: it loads when the metrics tab is first opened.
const MetricsTab = lazy(() => import('./metrics-tab.js').then((m) => m.MetricsTab));

export type ServerRecord = ResponseOf<Endpoints['getServer']>;
export interface TabProps {
  server: ServerRecord;
}

/**
 * The server page's tabs, each at its own address (`#/servers/3/missions`), so that a link or a reload
 * keeps it; each shown only when the server's game can do what it is about.
 */
const TABS: {
  id: string;
  label: string | ((game: GameType) => string);
  Tab: ComponentType<TabProps>;
  shown?: (game: GameType) => boolean;
}[] = [
  { id: 'console', label: 'Console', Tab: ConsoleTab },
  { id: 'players', label: 'Players', Tab: PlayersTab, shown: (g) => can(g, 'remote_admin') },
  { id: 'bans', label: 'Bans', Tab: BansTab, shown: (g) => can(g, 'ban_manager') || can(g, 'remote_admin') },
  { id: 'missions', label: (g) => `${missionLabel(g)}s`, Tab: MissionsTab, shown: (g) => can(g, 'mission_manager') },
  { id: 'mods', label: 'Mods', Tab: ModsTab, shown: (g) => can(g, 'mod_manager') },
  { id: 'workshop', label: 'Workshop', Tab: WorkshopTab, shown: (g) => !!g.steam?.workshop_app_id },
  { id: 'schedules', label: 'Schedules', Tab: SchedulesTab, shown: (g) => can(g, 'process_config') },
  { id: 'backups', label: 'Backups', Tab: BackupsTab, shown: (g) => can(g, 'process_config') },
  { id: 'config', label: 'Config', Tab: ConfigTab, shown: (g) => g.config_sections.length > 0 },
  { id: 'metrics', label: 'Metrics', Tab: MetricsTab },
  { id: 'install', label: 'Install', Tab: InstallTab, shown: (g) => !!g.steam },
  { id: 'logfiles', label: 'Log files', Tab: LogFilesTab, shown: (g) => can(g, 'log_parser') },
  { id: 'audit', label: 'Audit', Tab: AuditTab },
];

export function ServerPage({ id, tab }: { id: number; tab: string }) {
  const admin = isAdmin();
  const { state: server, apply, error } = useLiveState(`server:${id}:`, () => client.servers.get(id));
  const action = useAction();
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (server) document.title = `${server.name} · Garrison`;
  }, [server?.name]);

  useLiveEvents(
    id,
    serverChanges((_, change) => apply(change)),
  );

  const game = useGame(server?.game_type ?? null);
  if (!server || !game) return error ? <Problem error={error} /> : <p>Loading…</p>;
  const tabs = TABS.filter((t) => !t.shown || t.shown(game));
  const current = tabs.find((t) => t.id === tab) ?? tabs[0];
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
      {server.hostname && server.hostname !== server.name && <p class="hostname">{server.hostname}</p>}
      <Warnings warnings={server.warnings} />
      {server.description && <p class="description">{server.description}</p>}
      <dl class="figures wide-figures">
        <Figure label="Players" value={playersOf(server)} />
        <Figure label="CPU" value={cpuText(server.cpu_percent)} />
        <Figure label="Memory" value={memoryText(server.ram_mb)} />
        <Figure label="Connect" value={connectAddress(server)} />
        {server.mission && <Figure label={missionLabel(game)} value={server.mission} />}
        {game.remote_admin_port === 'own' && <Figure label="RCon port" value={server.rcon_port} />}
        <Figure label="Game" value={game.display_name} />
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
        {tabs.map((t) => (
          <a key={t.id} href={`#/servers/${id}/${t.id}`} aria-current={t.id === current.id ? 'page' : undefined}>
            {typeof t.label === 'string' ? t.label : t.label(game)}
          </a>
        ))}
      </nav>
      <div class="tab-panel">
        <current.Tab key={`${id}-${current.id}`} server={server} />
      </div>
    </section>
  );
}
