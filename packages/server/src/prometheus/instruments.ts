import { inject, injectable } from 'tsyringe';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type RegistryContentType } from 'prom-client';
import { TOKENS } from '../tokens.js';
import type { PrometheusSettings } from './settings.js';

/** Where a restart came from: a crash (auto-restart), a schedule, or someone asking. */
export type RestartReason = 'crash' | 'schedule' | 'manual';

/**
 * The service's Prometheus series, in a registry of this instance's own (several instances may share
 * a process in tests). Labels are bounded: a server's id, its game, a state, a reason, a route template,
 * a job's kind; never a player, an address, a mission or a command's text. Everything here is inert
 * while `/metrics` is off, so that the measuring costs nothing then.
 */
@injectable()
export class PrometheusInstruments {
  readonly enabled: boolean;
  /** Both formats: the exposition picks one per scrape. */
  readonly registry = new Registry<RegistryContentType>();

  readonly httpDuration = new Histogram({
    name: 'garrison_http_request_duration_seconds',
    help: 'Time to answer an API request, by route template, method and status class.',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly rconDuration = new Histogram({
    name: 'garrison_rcon_command_duration_seconds',
    help: "Time a remote-admin command took to be answered by the game (the player polls' included).",
    labelNames: ['server_id', 'result'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly restarts = new Counter({
    name: 'garrison_server_restarts_total',
    help: 'Restarts of a game server, by reason: crash (auto-restart), schedule, manual.',
    labelNames: ['server_id', 'reason'] as const,
    registers: [this.registry],
  });

  readonly jobRuns = new Counter({
    name: 'garrison_job_runs_total',
    help: 'Runs of the periodic and delayed jobs, by kind of job and result.',
    labelNames: ['job', 'result'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'garrison_webhook_deliveries_total',
    help: 'Webhook deliveries by endpoint kind and result: delivered, retry (to be tried again), failed (for good).',
    labelNames: ['kind', 'result'] as const,
    registers: [this.registry],
  });

  readonly websocketClients = new Gauge({
    name: 'garrison_websocket_clients',
    help: 'WebSocket clients connected to this instance.',
    registers: [this.registry],
  });

  constructor(@inject(TOKENS.Settings) settings: PrometheusSettings) {
    this.enabled = settings.metricsToken !== null;
    if (!this.enabled) return;
    // prom-client's own names start with process_ and nodejs_: under garrison_ once
    // (garrison_process_cpu_seconds_total, garrison_nodejs_eventloop_lag_seconds).
    collectDefaultMetrics({ register: this.registry, prefix: 'garrison_' });
    // Gauges with a counter's `_total` name, which Prometheus' linter refuses; the same figures remain by
    // type in `garrison_nodejs_active_{handles,requests,resources}`.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
      this.registry.removeSingleMetric(`garrison_${name}`);
  }

  /** Counts a restart (only what this instance did: each instance exposes its own servers). */
  restarted(serverId: number, reason: RestartReason): void {
    if (this.enabled) this.restarts.inc({ server_id: String(serverId), reason });
  }

  rconCommand(serverId: number, seconds: number, ok: boolean): void {
    if (this.enabled) this.rconDuration.observe({ server_id: String(serverId), result: ok ? 'ok' : 'error' }, seconds);
  }

  webhookDelivered(kind: string, result: 'delivered' | 'retry' | 'failed', count: number): void {
    if (this.enabled) this.webhookDeliveries.inc({ kind, result }, count);
  }

  /** A job's runs counted by its kind: `players.poll:3` is `players.poll`, so that the label stays bounded. */
  jobRun(name: string, failed: boolean): void {
    if (this.enabled) this.jobRuns.inc({ job: name.split(':')[0], result: failed ? 'error' : 'ok' });
  }
}
