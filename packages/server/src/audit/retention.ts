import { inject, injectable } from 'tsyringe';
import { TOKENS } from '../tokens.js';
import type { HistorySettings } from './settings.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { AuditService } from './service.js';
import { PlayerService } from '../players/service.js';
import { ClusterLeases } from '../cluster/leases.js';
import { WebhookService } from '../webhooks/service.js';
import { SessionService } from '../auth/sessions.js';
import { Forwarder } from '../cluster/forwarding.js';

const EVERY_MS = 3_600_000;
const JITTER_MS = 5 * 60_000;

/**
 * The audit trail, the player history, the webhooks' delivery log and old sessions kept (and the nonces of forwarded requests, past their
 * tolerance) for `historyRetentionDays`: pruned at start and every hour, by one instance of a cluster.
 */
@injectable()
export class HistoryRetention implements Lifecycle {
  private job: Job | null = null;

  constructor(
    @inject(TOKENS.Settings) private readonly settings: HistorySettings,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(PlayerService) private readonly players: PlayerService,
    @inject(ClusterLeases) private readonly leases: ClusterLeases,
    @inject(WebhookService) private readonly webhooks: WebhookService,
    @inject(SessionService) private readonly sessions: SessionService,
    @inject(Forwarder) private readonly forwarder: Forwarder,
  ) {}

  start(): void {
    const days = this.settings.historyRetentionDays;
    // Once in the cluster per hour; the deletes land only while the lease is this instance's.
    this.job = this.jobs.every({
      name: 'history.prune',
      everyMs: EVERY_MS,
      jitterMs: JITTER_MS,
      run: async () =>
        void (await this.leases.once('history.prune', EVERY_MS, (fence) =>
          Promise.all([
            this.audit.prune(days, fence),
            this.players.prune(days, fence),
            this.webhooks.prune(days, fence),
            this.sessions.prune(days, fence),
            this.forwarder.pruneNonces(fence),
          ]),
        )),
    });
  }

  stop(): void {
    this.job?.cancel();
  }
}
