import type { FeatureModule } from '../modules/feature-module.js';
import { LeaseRepository } from '../db/repositories/leases.js';
import { RateLimitRepository } from '../db/repositories/rate-limits.js';
import { ClusterNonceRepository } from '../db/repositories/cluster-nonces.js';
import { DatabaseTime } from './database-time.js';
import { ClusterEvents } from './event-bridge.js';
import { ClusterLeases } from './leases.js';
import { Forwarder } from './forwarding.js';
import { RemoteFigures } from './remote-figures.js';
import { RateLimits } from './rate-limits.js';

/** The instances sharing one database: their event bridge, leases, forwarding and shared rate limits. */
const repositories = { leases: LeaseRepository, rateLimits: RateLimitRepository, clusterNonces: ClusterNonceRepository };

export const clusterModule: FeatureModule<typeof repositories> = {
  name: 'cluster',
  needs: ['jobs'],
  repositories,
  services: [DatabaseTime, ClusterEvents, ClusterLeases, Forwarder, RemoteFigures, RateLimits],
  parts: (c) => [
    ['cluster events', c.resolve(ClusterEvents)],
    ['remote figures', c.resolve(RemoteFigures)],
    ['rate limits', c.resolve(RateLimits)],
  ],
};
