import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { TOKENS } from '../tokens.js';
import type { WebhookSettings } from './settings.js';
import type { Repositories } from '../db/repositories/index.js';
import type { DeliveryOutcome, DeliveryRow, WebhookRow } from '../db/repositories/webhooks.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Clock } from '../jobs/clock.js';
import { ClusterLeases } from '../cluster/leases.js';
import { PrometheusInstruments } from '../prometheus/instruments.js';
import { postJson, type SendResult } from './sender.js';
import { signature } from './signing.js';
import { discordMessage, EMBEDS_PER_MESSAGE } from './discord.js';
import { WebhookOutbox } from './outbox.js';
import type { EventBus } from '../events/bus.js';
import { publishDelivery, toDelivery } from './to-delivery.js';

/** Waits before the 2nd, 3rd… attempt: about a day in all, then the delivery has failed. */
export const BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000];
const TIMEOUT_MS = 10_000;
/** How long a claimed delivery is this worker's: longer than one send can take. */
const CLAIM_MS = 60_000;
const BATCH = 200;
/** Sends under way at once, over all endpoints. */
const PARALLEL = 32;
const LONGEST_WAIT_MS = 6 * 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString();

interface Outcome {
  hook: WebhookRow;
  ids: number[];
  rows: DeliveryRow[];
  result: 'delivered' | 'retry' | 'failed' | 'gone';
  outcome: DeliveryOutcome;
}

/**
 * The delivering worker: a job that, on the instance holding the `webhooks.deliver` lease, claims due
 * deliveries, sends them, and writes each outcome (delivered; retried later with back-off and jitter,
 * or when the receiver said; failed for good). 410 Gone turns the endpoint off. Discord endpoints get
 * their due events in messages of up to 10 embeds, so a burst becomes one message.
 */
@injectable()
export class WebhookDeliverer implements Lifecycle {
  private job: Job | null = null;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: WebhookSettings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(ClusterLeases) private readonly leases: ClusterLeases,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
    @inject(PrometheusInstruments) private readonly instruments: PrometheusInstruments,
    @inject(TOKENS.Events) private readonly events: EventBus,
  ) {}

  start(): void {
    this.job = this.jobs.every({ name: 'webhooks.deliver', everyMs: this.settings.webhookPollMs, run: () => this.pass() });
    this.outbox.onEnqueued(() => void this.job?.runNow());
  }

  stop(): void {
    this.job?.cancel();
  }

  /** Claims and sends until nothing is due (under the lease: one instance of a cluster delivers). */
  private async pass(): Promise<void> {
    // A look first, so that an idle cluster does not write its lease every second.
    if (!(await this.repos.webhooks.anyDue(iso(this.clock.now())))) return;
    await this.leases.once('webhooks.deliver', 30_000, async () => {
      for (;;) {
        const now = this.clock.now();
        const claimed = await this.repos.webhooks.claimDue(iso(now), iso(now + CLAIM_MS), BATCH);
        if (!claimed.length) return;
        const hooks = new Map((await this.repos.webhooks.list()).map((h) => [h.id, h]));
        const sends: (() => Promise<void>)[] = [];
        const outcomes: Outcome[] = [];
        for (const [webhookId, rows] of groupBy(claimed, (r) => r.webhook_id)) {
          const hook = hooks.get(webhookId);
          if (!hook) continue;
          const send = (batch: DeliveryRow[]) =>
            sends.push(async () => void outcomes.push(this.outcomeOf(hook, batch, await this.send(hook, batch))));
          if (hook.kind === 'discord')
            for (let i = 0; i < rows.length; i += EMBEDS_PER_MESSAGE) send(rows.slice(i, i + EMBEDS_PER_MESSAGE));
          else for (const row of rows) send([row]);
        }
        await inParallel(sends, PARALLEL);
        await this.repos.webhooks.settle(outcomes);
        // Each delivery as the log now lists it, for the admins' consoles (live, without a read).
        for (const { rows, outcome } of outcomes)
          for (const row of rows) publishDelivery(this.events, toDelivery({ ...row, ...outcome, claimed_until: null }));
        for (const { hook, ids, result } of outcomes) {
          this.instruments.webhookDelivered(hook.kind, result === 'gone' ? 'failed' : result, ids.length);
          if (result === 'gone') await this.turnOff(hook);
        }
        if (claimed.length < BATCH) return;
      }
    });
  }

  /** One request for `rows` (one generic delivery, or up to 10 events in one Discord message). */
  private async send(hook: WebhookRow, rows: DeliveryRow[]): Promise<SendResult> {
    const payloads = rows.map((r) => r.payload);
    let body: string;
    let headers: Record<string, string> = {};
    if (hook.kind === 'discord') {
      body = JSON.stringify(discordMessage(payloads));
    } else {
      body = JSON.stringify(rows[0].payload);
      const timestamp = Math.floor(this.clock.now() / 1000);
      const secrets = [
        hook.secret,
        ...(hook.previous_secret && hook.previous_secret_expires_at && hook.previous_secret_expires_at > iso(this.clock.now())
          ? [hook.previous_secret]
          : []),
      ];
      headers = {
        'webhook-id': rows[0].event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(secrets, rows[0].event_id, timestamp, body),
      };
    }
    try {
      return await postJson(hook.url, body, headers, {
        allowPrivate: this.settings.webhookAllowPrivate,
        timeoutMs: TIMEOUT_MS,
        now: () => this.clock.now(),
      });
    } catch (err) {
      return { status: null, snippet: null, error: (err as Error).message, durationMs: 0, retryAfterMs: null };
    }
  }

  /** What becomes of `rows` after a send: delivered; failed for good; or pending until the next attempt. */
  private outcomeOf(hook: WebhookRow, rows: DeliveryRow[], sent: SendResult): Outcome {
    const now = this.clock.now();
    const attempt = Math.max(...rows.map((r) => r.attempt)) + 1;
    const seen: DeliveryOutcome = {
      attempt,
      response_status: sent.status,
      response_snippet: sent.snippet,
      error: sent.error,
      duration_ms: sent.durationMs,
    };
    const ids = rows.map((r) => r.id);
    const done = { hook, ids, rows };
    if (sent.status !== null && sent.status >= 200 && sent.status < 300) {
      return { ...done, result: 'delivered', outcome: { ...seen, status: 'delivered', next_attempt_at: null, delivered_at: iso(now) } };
    }
    if (sent.status === 410) return { ...done, result: 'gone', outcome: { ...seen, status: 'failed', next_attempt_at: null } };
    if (attempt > BACKOFF_MS.length) {
      this.logger.warn({ webhook: hook.id, attempts: attempt, status: sent.status }, 'webhook delivery failed for good');
      return { ...done, result: 'failed', outcome: { ...seen, status: 'failed', next_attempt_at: null } };
    }
    const asked =
      (sent.status === 429 || sent.status === 503) && sent.retryAfterMs !== null ? Math.min(sent.retryAfterMs, LONGEST_WAIT_MS) : null;
    // ±20 % jitter, so that deliveries failed together do not come back together.
    const wait = asked ?? Math.round(BACKOFF_MS[attempt - 1] * (0.8 + Math.random() * 0.4));
    return { ...done, result: 'retry', outcome: { ...seen, status: 'pending', next_attempt_at: iso(now + wait) } };
  }

  /** 410 Gone: the receiver says the endpoint is no more; it is turned off and its pending deliveries given up. */
  private async turnOff(hook: WebhookRow): Promise<void> {
    await this.repos.webhooks.update(hook.id, {
      enabled: false,
      disabled_reason: `the receiver answered 410 Gone on ${iso(this.clock.now())}`,
    });
    await this.repos.webhooks.abandonPending(hook.id, 'the endpoint was turned off (410 Gone)');
    this.logger.warn({ webhook: hook.id }, 'webhook endpoint answered 410 Gone: turned off');
  }
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

async function inParallel(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) await tasks[next++]();
    }),
  );
}
