import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, type Actor, type ClusterNode, type ServerStatus } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { ClusterSettings } from '../cluster/settings.js';
import type { Repositories } from '../db/repositories/index.js';
import type { NodeRow } from '../db/repositories/nodes.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { DatabaseAccess } from '../db/access.js';
import { isoOfDatabaseTime } from '../db/database-clock.js';
import { DatabaseTime } from '../cluster/database-time.js';
import { SERVICE_VERSION } from '../system/version.js';
import { ClusterEvents } from '../cluster/event-bridge.js';
import type { NodeLock } from '../db/node-lock.js';
import { isCluster } from '../cluster/mode.js';
import type { InProcessEventBus } from '../events/bus.js';
import { AuditService } from '../audit/service.js';
import { WebhookOutbox } from '../webhooks/outbox.js';

/** Where a server's requests go, and whether that node is alive. */
export interface Owner {
  nodeId: string;
  url: string;
  online: boolean;
  local: boolean;
}

/**
 * The instances of a cluster (for a single instance, itself): each says it is alive every few seconds
 * by writing the database's clock into its row; a node whose last word is older than the offline
 * limit is offline, whatever the hosts' own clocks say. A node id is one process's: on MySQL/MariaDB the
 * database's named lock keeps a second one from starting.
 */
@injectable()
export class NodeService implements Lifecycle {
  private readonly incarnation = randomBytes(8).toString('hex');
  private lock: NodeLock | null = null;
  private job: Job | null = null;
  private known = new Map<string, NodeRow>();
  private url: string;
  /** Moves when a node goes offline or comes back, so that a kept server list is made again. */
  version = 0;

  constructor(
    @inject(TOKENS.Settings) private readonly settings: ClusterSettings,
    @inject(TOKENS.NodeId) readonly nodeId: string,
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.DatabaseAccess) private readonly db: DatabaseAccess,
    @inject(ClusterEvents) private readonly clusterEvents: ClusterEvents,
    @inject(TOKENS.Events) private readonly events: InProcessEventBus,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
    @inject(DatabaseTime) private readonly databaseTime: DatabaseTime,
    @inject(AuditService) private readonly audit: AuditService,
  ) {
    this.url = settings.advertiseUrl ?? '';
  }

  async start(): Promise<void> {
    // A node id is one process's wherever the database is shared; on SQLite the data dir's lock is that one.
    if (this.db.dialect === 'mysql') this.lock = await this.db.takeNodeLock(this.nodeId, this.logger);
    await this.register();
    const claimed = await this.repos.servers.claimUnowned(this.nodeId);
    if (claimed) this.logger.info({ servers: claimed, node: this.nodeId }, 'servers recorded before nodes existed now belong to this node');
    await this.refresh();
    // A single instance is its only node, always online: nothing to tell anyone.
    if (!isCluster(this.settings)) return;
    await this.databaseTime.measure();
    this.job = this.jobs.every({
      name: 'nodes.heartbeat',
      everyMs: this.settings.nodeHeartbeatMs,
      startNow: false,
      run: () => this.beat(),
    });
  }

  async stop(): Promise<void> {
    this.job?.cancel();
    await this.lock?.release();
  }

  /** Once listening: where the peers reach this instance, unless the deployer said. */
  async listeningAt(url: string): Promise<void> {
    if (this.settings.advertiseUrl) return;
    if (isCluster(this.settings) && /^http:\/\/(127\.|\[::1\]|localhost)/.test(url)) {
      this.logger.warn(
        { url },
        'GARRISON_ADVERTISE_URL is not set and this instance listens on loopback: instances on other hosts cannot forward requests to it',
      );
    }
    this.url = url;
    await this.repos.nodes.setUrl(this.nodeId, url);
  }

  private async beat(): Promise<void> {
    if (this.lock && !(await this.lock.held())) {
      this.logger.error({ node: this.nodeId }, 'lost the database lock of this node id (the database connection dropped); taking it again');
      await this.lock.release();
      this.lock = await this.db.takeNodeLock(this.nodeId, this.logger).catch((err: unknown) => {
        this.logger.fatal({ err: (err as Error).message }, 'another instance now holds this node id');
        return null;
      });
    }
    const mine = await this.repos.nodes.heartbeat(this.nodeId, this.incarnation, this.clusterEvents.state());
    if (!mine) {
      this.logger.warn({ node: this.nodeId }, "this node's record was taken over by another start with the same id; registering again");
      await this.register();
    }
    await this.refresh();
    await this.databaseTime.measure();
  }

  private register(): Promise<void> {
    return this.repos.nodes.register({
      id: this.nodeId,
      url: this.url,
      version: SERVICE_VERSION,
      game_types: this.adapters.list().map((a) => a.identity.game_type),
      incarnation: this.incarnation,
      events_connected: this.clusterEvents.state(),
    });
  }

  /** Reads every node's heartbeat age; a change of who is online is logged and moves `version`. */
  private async refresh(): Promise<Map<string, NodeRow>> {
    const rows = await this.repos.nodes.list();
    const next = new Map(rows.map((r) => [r.id, r]));
    for (const row of rows) {
      const was = this.known.get(row.id);
      const online = this.onlineOf(row);
      if (was && this.onlineOf(was) !== online) {
        this.version += 1;
        this.logger[online ? 'info' : 'warn'](
          { node: row.id },
          online ? 'node back online' : 'node offline: its servers show status unknown',
        );
        await this.announceServersOf(row.id, online);
        // Every instance notices; the heartbeat it went silent at names the change alike on each of them.
        const silentAt = String(online ? was.last_seen : row.last_seen);
        void this.outbox.emitOnce(online ? 'node.online' : 'node.offline', `${row.id}:${silentAt}`, { node_id: row.id });
      }
    }
    if (rows.length !== this.known.size) this.version += 1;
    this.known = next;
    return next;
  }

  /** Tells this instance's clients, live, that the servers of a node that went away are unknown now (or known again). */
  private async announceServersOf(nodeId: string, online: boolean): Promise<void> {
    for (const server of await this.repos.servers.all(nodeId)) {
      this.events.showLocally({
        type: 'server_status',
        server_id: server.id,
        data: { status: online ? server.status : 'unknown', pid: server.pid, started_at: server.started_at },
      });
    }
  }

  private onlineOf(row: NodeRow): boolean {
    return row.id === this.nodeId || row.age_ms < this.settings.nodeOfflineAfterMs;
  }

  /** As of the last heartbeat: this instance always; another while its heartbeat is recent. */
  isOnline(nodeId: string): boolean {
    const row = this.known.get(nodeId);
    return nodeId === this.nodeId || (row !== undefined && this.onlineOf(row));
  }

  /** The node a server belongs to, read fresh for the one asked about (`known` stays the heartbeat's, whose changes are announced). */
  async owner(nodeId: string | null): Promise<Owner> {
    const id = nodeId ?? this.nodeId;
    if (id === this.nodeId) return { nodeId: id, url: this.url, online: true, local: true };
    const row = await this.repos.nodes.find(id);
    return { nodeId: id, url: row?.url ?? '', online: row !== undefined && this.onlineOf(row), local: false };
  }

  /** What a server record shows of its node: its id, whether it is alive, and `unknown` while it is not. */
  view(row: { node_id: string | null; status: ServerStatus }): { node_id: string; node_online: boolean; status: ServerStatus } {
    const nodeId = row.node_id ?? this.nodeId;
    const online = this.isOnline(nodeId);
    return { node_id: nodeId, node_online: online, status: online ? row.status : 'unknown' };
  }

  /** Where a new server goes: the node asked for (alive, not draining), else this one, else the least loaded. */
  async placement(asked: string | undefined): Promise<string> {
    const nodes = await this.refresh();
    if (asked !== undefined) {
      const node = nodes.get(asked);
      if (!node) throw new ApiError('VALIDATION_ERROR', `field 'node_id': no node ${asked}; GET /api/nodes lists them`);
      if (node.draining) throw new ApiError('CONFLICT', `node ${asked} is draining: no new servers are placed on it`);
      if (!this.onlineOf(node)) throw new ApiError('NODE_UNAVAILABLE', `node ${asked} is offline`);
      return asked;
    }
    if (!nodes.get(this.nodeId)?.draining) return this.nodeId;
    const counts = await this.repos.servers.countByNode();
    const open = [...nodes.values()]
      .filter((n) => !n.draining && this.onlineOf(n))
      .sort((a, b) => (counts.get(a.id) ?? 0) - (counts.get(b.id) ?? 0));
    if (!open.length) throw new ApiError('CONFLICT', 'every node is draining or offline: no node to place a new server on');
    return open[0].id;
  }

  async list(): Promise<ClusterNode[]> {
    const [nodes, counts] = await Promise.all([this.refresh(), this.repos.servers.countByNode()]);
    return [...nodes.values()].map((row) => this.toNode(row, counts.get(row.id) ?? 0));
  }

  async setDraining(id: string, draining: boolean, actor: Actor): Promise<ClusterNode> {
    await this.audit.inTransaction(async (trx) => {
      if (!(await this.repos.nodes.setDraining(id, draining, trx))) throw new ApiError('NOT_FOUND', `no node ${id}`);
      await this.audit.record(trx, {
        serverId: null,
        type: draining ? 'node_drained' : 'node_undrained',
        actor,
        target: { kind: 'node', id, name: id },
      });
    });
    this.logger.info(
      { node: id, draining, actor },
      draining ? 'node draining: no new servers are placed on it' : 'node open for new servers again',
    );
    const node = (await this.list()).find((n) => n.id === id);
    if (!node) throw new ApiError('NOT_FOUND', `no node ${id}`);
    return node;
  }

  private toNode(row: NodeRow, serverCount: number): ClusterNode {
    return {
      id: row.id,
      url: row.url,
      version: row.version,
      game_types: row.game_types,
      online: this.onlineOf(row),
      // The instance answering is alive now, whatever its last heartbeat (a single instance has none).
      last_seen: row.id === this.nodeId ? new Date(this.databaseTime.now()).toISOString() : isoOfDatabaseTime(row.last_seen),
      draining: row.draining,
      server_count: serverCount,
      events_connected: row.id === this.nodeId ? this.clusterEvents.state() : row.events_connected,
    };
  }
}
