import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import { TOKENS } from './tokens.js';
import type { Settings } from './settings.js';
import type { Database } from './db/connection.js';
import { bindRepositories } from './db/repositories/index.js';
import type { AdapterRegistry } from './plugins/registry.js';
import { InProcessEventBus } from './events/bus.js';
import type { Clock } from './jobs/clock.js';
import { JobRunner } from './jobs/runner.js';
import type { Lifecycle } from './lifecycle/lifecycle.js';
import { AuditService } from './audit/service.js';
import { HistoryRetention } from './audit/retention.js';
import { ServerGlance } from './servers/glance.js';
import { RemoteAdminService } from './rcon/service.js';
import { ProcessService } from './processes/service.js';
import { LogService } from './logs/service.js';
import { MetricsService } from './metrics/service.js';
import { PlayerService } from './players/service.js';
import { BanService } from './bans/service.js';
import { Supervisor } from './supervisor/supervisor.js';
import { DatabaseAccess } from './db/access.js';
import { adoptAll } from './supervisor/adoption.js';
import { ProcessWatchers } from './supervisor/watchers.js';
import { ServerStates } from './supervisor/status.js';
import { HeadlessClients } from './supervisor/headless.js';
import { AutoRestarts } from './supervisor/auto-restart.js';
import { TokenService } from './auth/tokens.js';
import { UserService } from './auth/service.js';
import { ApiKeyService } from './auth/api-keys.js';
import { SessionService } from './auth/sessions.js';
import { TwoFactorService } from './auth/two-factor.js';
import { LiveFigures } from './metrics/live-values.js';
import { ServerLocks } from './servers/locks.js';
import { ServerService } from './servers/service.js';
import { OwnFolders } from './servers/own-folders.js';
import { ConfigService } from './config/service.js';
import { LogFileService } from './logfiles/service.js';
import { MissionService } from './missions/service.js';
import { ModService } from './mods/service.js';
import { ModPresets } from './mods/presets.js';
import { ImportService } from './import/service.js';
import { ScheduleService } from './schedules/service.js';
import { ScheduleRunner } from './schedules/runner.js';
import { ScheduleActions } from './schedules/actions.js';
import { RunConditions } from './schedules/conditions.js';
import { RunContext } from './schedules/execution.js';
import { BackupService } from './backups/service.js';
import { BackupRestore } from './backups/restore.js';
import { DatabaseBackups } from './backups/database.js';
import { NodeService } from './nodes/service.js';
import { ClusterEvents } from './cluster/event-bridge.js';
import { ClusterLeases } from './cluster/leases.js';
import { DatabaseTime } from './cluster/database-time.js';
import { Forwarder } from './cluster/forwarding.js';
import { RemoteFigures } from './cluster/remote-figures.js';
import { RateLimits } from './cluster/rate-limits.js';
import { PrometheusInstruments } from './prometheus/instruments.js';
import { ServerFigures } from './prometheus/server-figures.js';
import { WebhookOutbox } from './webhooks/outbox.js';
import { WebhookDeliverer } from './webhooks/delivery.js';
import { WebhookService } from './webhooks/service.js';

/**
 * The service's parts in one container: the values every part is built from, by token; the services
 * themselves are built on first use, each once, from their declared dependencies.
 */
export function compose(settings: Settings, logger: Logger, db: Database, adapters: AdapterRegistry, clock: Clock, nodeId: string): DependencyContainer {
  const container = rootContainer.createChildContainer();
  container.register(TOKENS.Settings, { useValue: settings });
  container.register(TOKENS.Logger, { useValue: logger });
  container.register(TOKENS.Repositories, { useValue: bindRepositories(db.knex) });
  container.register(TOKENS.Adapters, { useValue: adapters });
  container.register(TOKENS.Clock, { useValue: clock });
  container.register(TOKENS.NodeId, { useValue: nodeId });
  container.register(TOKENS.Database, { useValue: db });
  container.register(TOKENS.DatabaseAccess, { useValue: new DatabaseAccess(db) });
  container.register(TOKENS.Jobs, { useValue: new JobRunner(clock, logger) });
  container.register(TOKENS.Events, { useValue: new InProcessEventBus(nodeId, clock, (err, event) => logger.error({ err, type: event.type }, 'event subscriber failed')) });
  for (const service of SERVICES) container.registerSingleton(service as never);
  return container;
}

/** Every service class: one of each per container. */
const SERVICES = [
  PrometheusInstruments, ServerFigures, WebhookOutbox, WebhookDeliverer, WebhookService, DatabaseTime, NodeService, ClusterEvents, ClusterLeases, Forwarder, RemoteFigures, RateLimits, TokenService, SessionService, TwoFactorService, UserService, ApiKeyService, LiveFigures, ServerLocks, ServerGlance, ServerService, OwnFolders, ConfigService, RemoteAdminService, AuditService, ProcessService,
  ProcessWatchers, ServerStates, HeadlessClients, Supervisor, LogService, MetricsService, PlayerService, BanService, LogFileService,
  MissionService, ModService, ModPresets, ImportService, HistoryRetention, AutoRestarts,
  ScheduleService, ScheduleRunner, ScheduleActions, RunConditions, RunContext, BackupService, BackupRestore, DatabaseBackups,
];

/**
 * What starts and stops, in dependency order (each after what it needs; stopped in reverse): the job
 * runner first and last; the audit trail before whatever records into it; the process watchers (logs,
 * metrics, players) before the supervisor re-adopts the games, so that they hear of every one.
 */
export function lifecycleParts(container: DependencyContainer): [string, Lifecycle][] {
  const supervisor = container.resolve(Supervisor);
  const bans = container.resolve(BanService);
  supervisor.beforeLaunch((id) => bans.beforeLaunch(id));
  const ownFolders = container.resolve(OwnFolders);
  supervisor.beforeFiles((id) => ownFolders.separateLocked(id));
  const jobs = container.resolve(TOKENS.Jobs);
  return [
    ['jobs', { stop: () => jobs.stop() }],
    ['cluster events', container.resolve(ClusterEvents)],
    ['nodes', container.resolve(NodeService)],
    ['remote figures', container.resolve(RemoteFigures)],
    ['rate limits', container.resolve(RateLimits)],
    ['audit', container.resolve(AuditService)],
    ['prometheus', container.resolve(ServerFigures)],
    ['webhooks', container.resolve(WebhookDeliverer)],
    ['remote admin', container.resolve(RemoteAdminService)],
    ['processes', container.resolve(ProcessService)],
    ['logs', container.resolve(LogService)],
    ['metrics', container.resolve(MetricsService)],
    ['players', container.resolve(PlayerService)],
    ['bans', bans],
    ['history retention', container.resolve(HistoryRetention)],
    ['server glance', container.resolve(ServerGlance)],
    // Before adoption: a crashed server auto-restarted at the start finds its own folders ready.
    ['own folders', ownFolders],
    ['supervisor', { start: () => adoptAll(supervisor.adoption), stop: () => supervisor.close() }],
    ['backups', container.resolve(BackupService)],
    ['database backups', container.resolve(DatabaseBackups)],
    ['schedules', container.resolve(ScheduleRunner)],
  ];
}
