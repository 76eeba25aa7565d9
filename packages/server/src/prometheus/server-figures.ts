import { inject, injectable } from 'tsyringe';
import { Counter, Gauge } from 'prom-client';
import { ACTIVE_STATUSES, ServerStatus, type ServerListItem } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { EventBus } from '../events/bus.js';
import type { JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { ServerService } from '../servers/service.js';
import { RemoteAdminService } from '../rcon/service.js';
import { processUsage, TICKS_PER_SECOND } from '../processes/proc.js';
import { PrometheusInstruments, type RestartReason } from './instruments.js';

const STATES = ServerStatus.anyOf.map((literal) => literal.const as string);
const BY_SERVER = ['server_id', 'game'] as const;

/**
 * The figures of this node's servers, read at each scrape (state, players, process CPU and memory, RCon
 * health) rather than kept up to date between scrapes; and the counts that can only be heard as they
 * happen (restarts, job runs), from the audit events and the job runner.
 */
@injectable()
export class ServerFigures implements Lifecycle {
  private readonly up: Gauge<(typeof BY_SERVER)[number]>;
  private readonly state: Gauge<'server_id' | 'game' | 'state'>;
  private readonly players: Gauge<(typeof BY_SERVER)[number]>;
  private readonly slots: Gauge<(typeof BY_SERVER)[number]>;
  private readonly startTime: Gauge<(typeof BY_SERVER)[number]>;
  private readonly cpu: Counter<(typeof BY_SERVER)[number]>;
  private readonly memory: Gauge<(typeof BY_SERVER)[number]>;
  private readonly rconConnected: Gauge<(typeof BY_SERVER)[number]>;
  private readonly info: Gauge<'server_id' | 'name' | 'game'>;
  private clients: () => number = () => 0;
  private readonly stops: (() => void)[] = [];

  constructor(
    @inject(PrometheusInstruments) private readonly instruments: PrometheusInstruments,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(RemoteAdminService) private readonly rcon: RemoteAdminService,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
  ) {
    const registers = [instruments.registry];
    const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames: BY_SERVER, registers });
    this.up = gauge('garrison_server_up', "1 while the server's game runs (status running), else 0.");
    this.state = new Gauge({
      name: 'garrison_server_state',
      help: "1 for the server's status, 0 for every other.",
      labelNames: [...BY_SERVER, 'state'],
      registers,
    });
    this.players = gauge('garrison_server_players', 'Players on the server, by the last poll over remote admin.');
    this.slots = gauge('garrison_server_player_slots', "The server's player limit, from its config.");
    this.startTime = gauge('garrison_server_start_time_seconds', "When the server's process started, in seconds since the epoch.");
    this.cpu = new Counter({
      name: 'garrison_server_cpu_seconds_total',
      help: "CPU time the server's process has used.",
      labelNames: BY_SERVER,
      registers,
    });
    this.memory = gauge('garrison_server_memory_bytes', "Resident memory of the server's process.");
    this.rconConnected = gauge('garrison_rcon_connected', '1 while remote admin to the server answers, else 0.');
    // The name only here: the other series stay keyed by id, which a rename does not break; join for names.
    this.info = new Gauge({
      name: 'garrison_server_info',
      help: '1 for each server, with its name and game: join on server_id for the name.',
      labelNames: ['server_id', 'name', 'game'],
      registers,
    });
  }

  start(): void {
    if (!this.instruments.enabled) return;
    this.stops.push(
      // Only this instance's own events: the restarts of other nodes' servers are theirs to count.
      this.events.subscribe((event) => {
        if (event.type !== 'audit') return;
        const reason = restartReason(event.data.event_type, event.data.actor_kind);
        if (reason) this.instruments.restarted(event.server_id, reason);
      }),
      this.jobs.onFinished((run) => this.instruments.jobRun(run.name, run.failed)),
    );
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  /** Where the number of WebSocket clients comes from (the HTTP front, which owns them). */
  countClients(count: () => number): void {
    this.clients = count;
  }

  /** Reads every figure anew, just before the registry is written out. */
  async refresh(): Promise<void> {
    const items = await this.servers.ownedItems();
    for (const series of [this.up, this.state, this.players, this.slots, this.startTime, this.memory, this.rconConnected, this.info])
      series.reset();
    this.cpu.reset();
    for (const item of items) this.record(item);
    this.instruments.websocketClients.set(this.clients());
  }

  private record(item: ServerListItem): void {
    const labels = { server_id: String(item.id), game: item.game_type };
    this.info.set({ ...labels, name: item.name }, 1);
    this.up.set(labels, item.status === 'running' ? 1 : 0);
    for (const state of STATES) this.state.set({ ...labels, state }, item.status === state ? 1 : 0);
    if (item.max_players !== null) this.slots.set(labels, item.max_players);
    this.rconConnected.set(labels, this.rcon.connected(item.id) ? 1 : 0);
    this.players.set(labels, item.player_count ?? 0);
    if (!ACTIVE_STATUSES.includes(item.status) || item.pid === null) return;
    if (item.started_at) this.startTime.set(labels, Date.parse(item.started_at) / 1000);
    const usage = processUsage(item.pid);
    if (usage) {
      this.cpu.inc(labels, usage.ticks / TICKS_PER_SECOND);
      this.memory.set(labels, usage.rssBytes);
    }
  }
}

/** The restarts among the audit trail's entries: the supervisor's after a crash, a schedule's, a person's or a key's. */
function restartReason(type: string, actorKind: string): RestartReason | null {
  if (type === 'auto_restart') return 'crash';
  if (type !== 'restart') return null;
  return actorKind === 'schedule' ? 'schedule' : 'manual';
}
