import type { Knex } from 'knex';
import { UserRepository } from './users.js';
import { ServerRepository } from './servers.js';
import { ConfigSectionRepository } from './config-sections.js';
import { AuditRepository } from './audit.js';
import { BanRepository } from './bans.js';
import { LogLineRepository } from './log-lines.js';
import { MetricsRepository } from './metrics.js';
import { PlayerHistoryRepository } from './player-history.js';
import { ProcessRepository } from './processes.js';
import { ScheduleRepository } from './schedules.js';
import { BackupRepository } from './backups.js';
import { NodeRepository } from './nodes.js';
import { LeaseRepository } from './leases.js';
import { RateLimitRepository } from './rate-limits.js';
import { WebhookRepository } from './webhooks.js';
import { ApiKeyRepository } from './api-keys.js';
import { SessionRepository } from './sessions.js';
import { ClusterNonceRepository } from './cluster-nonces.js';
import { TwoFactorRepository } from './two-factor.js';
import { SecondStepRepository } from './second-steps.js';

/**
 * Data access, one repository per table, bound to one connection (several services can share a
 * process: tests do). No query is written anywhere else.
 */
export function bindRepositories(knex: Knex) {
  return {
    users: new UserRepository(knex),
    servers: new ServerRepository(knex),
    configSections: new ConfigSectionRepository(knex),
    audit: new AuditRepository(knex),
    bans: new BanRepository(knex),
    logLines: new LogLineRepository(knex),
    metrics: new MetricsRepository(knex),
    playerHistory: new PlayerHistoryRepository(knex),
    processes: new ProcessRepository(knex),
    schedules: new ScheduleRepository(knex),
    backups: new BackupRepository(knex),
    nodes: new NodeRepository(knex),
    leases: new LeaseRepository(knex),
    rateLimits: new RateLimitRepository(knex),
    webhooks: new WebhookRepository(knex),
    apiKeys: new ApiKeyRepository(knex),
    sessions: new SessionRepository(knex),
    clusterNonces: new ClusterNonceRepository(knex),
    twoFactor: new TwoFactorRepository(knex),
    secondSteps: new SecondStepRepository(knex),
  };
}

export type Repositories = ReturnType<typeof bindRepositories>;
export type { UserRow } from './users.js';
export type { ServerRow, ListRow } from './servers.js';
export type { ProcessRow, ProcessKey } from './processes.js';
