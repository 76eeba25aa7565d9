import type { Knex } from 'knex';
import { SettingError } from '../setting-specs.js';
import type { AuthSettings } from '../auth/settings.js';
import type { ClusterSettings } from './settings.js';
import { databaseVersion, type Dialect } from '../db/connection.js';

/** True when this instance is one of a cluster: MySQL/MariaDB shared with its peers, events over NATS. */
export const isCluster = (settings: Pick<ClusterSettings, 'natsUrl'>): boolean => settings.natsUrl !== null;

/**
 * Refuses, at start, a cluster that could not work: on SQLite (one host's file), or without the secrets
 * every instance must share (a token signed by one must be good at every other; forwarded requests are
 * signed with the cluster secret).
 */
export function checkClusterSettings(settings: ClusterSettings & Pick<AuthSettings, 'jwtSecret'>, dialect: Dialect): void {
  const given = (['natsUrl', 'clusterSecret', 'advertiseUrl'] as const).filter((k) => settings[k] !== null);
  const names = { natsUrl: 'GARRISON_NATS_URL', clusterSecret: 'GARRISON_CLUSTER_SECRET', advertiseUrl: 'GARRISON_ADVERTISE_URL' };
  if (!given.length) return;
  if (dialect === 'sqlite') {
    throw new SettingError(
      `${given.map((k) => names[k]).join(', ')}: a cluster needs MySQL or MariaDB (GARRISON_DATABASE_URL=mysql://…); SQLite ` +
        `is for one instance on one host`,
    );
  }
  if (!isCluster(settings))
    throw new SettingError(
      `${given.map((k) => names[k]).join(', ')} set without GARRISON_NATS_URL: a cluster's instances share their events over NATS`,
    );
  if (!settings.jwtSecret)
    throw new SettingError(
      'a cluster needs GARRISON_JWT_SECRET, the same on every instance (a token signed by one is checked by the others)',
    );
  if (!settings.clusterSecret)
    throw new SettingError(
      'a cluster needs GARRISON_CLUSTER_SECRET (at least 32 characters), the same on every instance: it signs the requests ' +
        'they forward to each other',
    );
}

/** `SELECT … FOR UPDATE SKIP LOCKED`, which a cluster's queues are claimed with: MariaDB 10.6, MySQL 8.0. */
export async function checkDatabaseForCluster(knex: Knex): Promise<string> {
  const version = await databaseVersion(knex);
  const [major, minor] = version.split(/[.-]/).map(Number) as [number, number];
  const maria = /mariadb/i.test(version);
  const enough = maria ? major > 10 || (major === 10 && minor >= 6) : major >= 8;
  if (!enough)
    throw new SettingError(
      `a cluster needs MariaDB 10.6 or later, or MySQL 8.0 or later (SELECT … FOR UPDATE SKIP LOCKED); this database is ${version}`,
    );
  return version;
}
