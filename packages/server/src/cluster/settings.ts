import { declareSettings, integer, SettingError, secretOf } from '../setting-specs.js';

/** Who this instance is among its peers, how they reach it and each other, and how they tell a dead one. */
export interface ClusterSettings {
  /** This instance's id: it owns the processes it runs. Null: generated once into the data dir. */
  nodeId: string | null;
  /** The address this instance's peers reach it at (`http://host:port`); null: its own listening address. */
  advertiseUrl: string | null;
  /** Set on MySQL/MariaDB: the instances sharing the database form a cluster, their events carried by NATS. */
  natsUrl: string | null;
  /** Signs the requests one instance forwards to another; the same on every instance of a cluster. */
  clusterSecret: string | null;
  /** How often this instance says it is alive; a node silent for nodeOfflineAfterMs is offline. */
  nodeHeartbeatMs: number;
  nodeOfflineAfterMs: number;
}

export const clusterSettings = declareSettings<ClusterSettings>({
  feature: 'cluster',
  defaults: { nodeId: null, advertiseUrl: null, natsUrl: null, clusterSecret: null, nodeHeartbeatMs: 2_000, nodeOfflineAfterMs: 10_000 },
  specs: [
    {
      key: 'nodeId',
      env: 'GARRISON_NODE_ID',
      shownDefault: 'generated',
      meaning:
        "this instance's id (letters, digits, . _ -); it owns the game processes it runs; unset: generated once into <data dir>/node-id",
      doc: {
        meaning:
          "this instance's id (letters, digits, `. _ -`); it owns the game processes it runs and re-adopts only its own; unset: " +
          'generated once into `<data dir>/node-id`',
      },
      parse: (raw, name) => {
        if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw)) {
          throw new SettingError(`${name} must be 1 to 64 letters, digits, dots, underscores or dashes; got ${JSON.stringify(raw)}`);
        }
        return raw;
      },
    },
    {
      key: 'advertiseUrl',
      env: 'GARRISON_ADVERTISE_URL',
      shownDefault: 'the listening address',
      meaning: "http(s)://host:port at which the other instances of a cluster reach this one's API",
      doc: { meaning: "`http(s)://host:port` at which the other instances of a cluster reach this one's API (forwarded requests)" },
      parse: (raw, name) => {
        if (!/^https?:\/\/[^/?#\s]+\/?$/.test(raw))
          throw new SettingError(`${name} must be http://host:port or https://host:port; got ${JSON.stringify(raw)}`);
        return raw.replace(/\/$/, '');
      },
    },
    {
      key: 'natsUrl',
      env: 'GARRISON_NATS_URL',
      shownDefault: 'none (one instance)',
      meaning: 'nats://host:4222 (comma-separated for several): with MySQL/MariaDB, the instances on one database form a cluster',
      doc: {
        meaning:
          '`nats://host:4222` (comma-separated for several): with MySQL/MariaDB, the instances on one database form a cluster; ' +
          'refused on SQLite',
      },
      parse: (raw, name) => {
        const urls = raw.split(',').map((u) => u.trim());
        if (urls.some((u) => !/^(nats|tls):\/\/[^/?#\s]+$/.test(u))) {
          throw new SettingError(`${name} must be nats://host:port (comma-separated for several); got ${JSON.stringify(raw)}`);
        }
        return urls.join(',');
      },
    },
    {
      key: 'clusterSecret',
      env: 'GARRISON_CLUSTER_SECRET',
      shownDefault: 'none',
      meaning: 'signs the requests instances forward to each other; the same on every instance, at least 32 characters',
      doc: {
        meaning:
          'signs the requests instances forward to each other; the same on every instance, at least 32 characters; a cluster needs ' +
          'it, and `GARRISON_JWT_SECRET` set alike on every instance',
      },
      parse: secretOf(32),
    },
    {
      key: 'nodeHeartbeatMs',
      env: 'GARRISON_NODE_HEARTBEAT_MS',
      meaning: 'how often an instance of a cluster says it is alive',
      parse: integer(100),
    },
    {
      key: 'nodeOfflineAfterMs',
      env: 'GARRISON_NODE_OFFLINE_AFTER_MS',
      meaning: 'a node silent this long is offline: its servers show status unknown and requests for them 503',
      doc: {
        meaning:
          "a node silent this long (by the database's clock) is offline: its servers show status `unknown` and requests for them " +
          'answer 503 `NODE_UNAVAILABLE`',
      },
      parse: integer(500),
    },
  ],
});
