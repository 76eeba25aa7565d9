import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import {
  ACTIVE_STATUSES,
  ApiError,
  type Actor,
  type Ban,
  type LivePlayer,
  type PlayerBanRequest,
  type PlayerEvent,
  type PlayerIdentity,
  type PlayerList,
  type RemoteAdminSession,
  type Static,
  expectOnly,
} from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Fence } from '../db/repositories/leases.js';
import type { PlayerSettings } from './settings.js';
import type { Repositories } from '../db/repositories/index.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { EventBus } from '../events/bus.js';
import { isoAgo, isoNow, type Clock } from '../jobs/clock.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { ProcessWatchers, type ProcessWatch } from '../supervisor/watchers.js';
import { RemoteAdminService } from '../rcon/service.js';
import { ServerService } from '../servers/service.js';
import { LiveFigures } from '../metrics/live-values.js';
import { AuditService } from '../audit/service.js';
import { BanService } from '../bans/service.js';
import { WebhookOutbox } from '../webhooks/outbox.js';
import { JoinAnnouncements } from './join-announcements.js';

interface Watched {
  job: Job;
  players: LivePlayer[];
  /** The remote-admin session whose messages are listened to. */
  session: RemoteAdminSession | null;
  stopListening: (() => void) | null;
  /** The game's join and leave messages, handled in order. */
  messages: Promise<void>;
  /** Whether the game has answered a player poll since it was attached: until then its count is unknown. */
  answered: boolean;
  /** The `player.joined` webhooks of visits whose identity the game has not reported yet. */
  joins: JoinAnnouncements;
}

const key = (p: { slot_id: string; name: string }) => `${p.slot_id}\u0000${p.name}`;
/** What every client sees of a player (the `players` event goes to viewers too): not who he is nor his address. */
const shown = (players: LivePlayer[]) => players.map(({ slot_id, name, ping }) => ({ slot_id, name, ping }));
/** What an admin sees, to know whom a kick or a ban would hit. */
const shownToAdmins = (players: LivePlayer[]) =>
  players.map(({ slot_id, name, ping, id, ip }) => ({ slot_id, name, ping, guid: id?.value ?? null, ip: ip ?? null }));

/**
 * The players of each running game: polled over remote admin (a `players` event when the list changes),
 * and followed through the game's join and leave messages, so that the history records a player who
 * stayed less than one poll. Kicks and bans go through here, recorded as their actor's.
 */
@injectable()
export class PlayerService implements ProcessWatch, Lifecycle {
  private readonly watched = new Map<number, Watched>();
  private stopWatching: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: PlayerSettings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(ProcessWatchers) private readonly watchers: ProcessWatchers,
    @inject(RemoteAdminService) private readonly remoteAdmin: RemoteAdminService,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(LiveFigures) private readonly live: LiveFigures,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(BanService) private readonly bans: BanService,
  ) {}

  start(): void {
    this.stopWatching = this.watchers.add('players', this);
    // The first poll may come before the game answers remote admin: poll again the moment it is running.
    this.unsubscribe = this.events.subscribe((event) => {
      if (event.type === 'server_status' && event.data.status === 'running') void this.watched.get(event.server_id)?.job.runNow();
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.stopWatching?.();
    for (const serverId of [...this.watched.keys()]) this.detached(serverId, 'unwatched');
  }

  attached(serverId: number): void {
    this.detached(serverId, 'unwatched');
    const watched: Watched = {
      players: [],
      answered: false,
      session: null,
      stopListening: null,
      messages: Promise.resolve(),
      joins: new JoinAnnouncements(
        (name, id) => void this.outbox.emitAbout('player.joined', serverId, { player_name: name, guid: id?.value ?? null }),
      ),
      job: this.jobs.every({
        name: `players.poll:${serverId}`,
        everyMs: this.settings.playersPollMs,
        startNow: false,
        run: () => this.pollOnce(serverId, watched),
      }),
    };
    this.watched.set(serverId, watched);
    void watched.job.runNow();
  }

  detached(serverId: number, why: 'gone' | 'unwatched' = 'gone'): void {
    const watched = this.watched.get(serverId);
    if (!watched) return;
    this.watched.delete(serverId);
    watched.job.cancel();
    watched.stopListening?.();
    watched.joins.clear();
    if (why === 'unwatched') return; // the game runs on; its players stay on
    if (watched.players.length) this.events.publish({ type: 'players', server_id: serverId, data: { players: [], count: 0 } });
    // Whoever was on has left with the server.
    const unrecorded = (err: unknown) => this.logger.error({ serverId, err }, 'the players were not recorded as having left');
    void this.repos.playerHistory.allLeft(serverId, isoNow(this.clock)).catch(unrecorded);
  }

  private async pollOnce(serverId: number, watched: Watched): Promise<void> {
    if (this.watched.get(serverId) !== watched) return;
    const row = await this.servers.row(serverId);
    // Not before the game answers: a login tried while it boots would only wait out its time-out.
    if (row.status !== 'running') return;
    const remote = this.adapters.get(row.game_type).capabilities.remote_admin;
    if (!remote) return;
    const players = await remote.listPlayers(this.remoteAdmin.run(serverId));
    if (this.watched.get(serverId) !== watched) return;
    await this.listen(serverId, watched);
    const before = new Map(watched.players.map((p) => [key(p), p]));
    const after = new Map(players.map((p) => [key(p), p]));
    const at = isoNow(this.clock);
    // On the same chain as the game's join and leave messages: a visit is looked up, then made, by
    // one of them at a time (two at once both found none and made two, on MariaDB).
    const recorded = watched.messages.then(async () => {
      for (const [k, p] of after) if (!before.has(k)) await this.joined(serverId, watched, p.slot_id, p.name, p.id, at);
      // An identity the list shows is the game's report too, when its message was missed.
      for (const p of players) if (p.id) watched.joins.identified(key(p), p.id);
      for (const [k, p] of before) if (!after.has(k)) await this.left(serverId, watched, p.slot_id, p.name, at);
      watched.joins.overdue(this.clock.now());
    });
    watched.messages = recorded.catch((err) => this.logger.debug({ serverId, err: (err as Error).message }, 'player list not recorded'));
    await recorded;
    // The first answer is news even when nobody plays: the count goes from unknown to 0.
    const changed = !watched.answered || before.size !== after.size || [...after.keys()].some((k) => !before.has(k));
    watched.answered = true;
    watched.players = players;
    this.live.update(serverId, { player_count: players.length });
    if (changed) this.events.publish({ type: 'players', server_id: serverId, data: { players: shown(players), count: players.length } });
  }

  /** Follows the game's messages on the current session; a new session (after a reconnect) is followed anew. */
  private async listen(serverId: number, watched: Watched): Promise<void> {
    const session = await this.remoteAdmin.session(serverId);
    if (watched.session === session) return;
    watched.stopListening?.();
    watched.session = session;
    const parse = this.adapters.get((await this.servers.row(serverId)).game_type).capabilities.remote_admin?.parsePlayerEvent;
    if (!parse) return;
    watched.stopListening = session.onMessage((message) => {
      const event = parse(message);
      // In order: an identity's message must find the row its join message made.
      if (event)
        watched.messages = watched.messages
          .then(() => this.onPlayerEvent(serverId, watched, event))
          .catch((err) => this.logger.debug({ serverId, err: (err as Error).message }, 'player message not recorded'));
    });
  }

  private async onPlayerEvent(serverId: number, watched: Watched, event: PlayerEvent): Promise<void> {
    const at = isoNow(this.clock);
    if (event.kind === 'joined') await this.joined(serverId, watched, event.slot_id, event.name, null, at);
    else if (event.kind === 'identified') {
      await this.repos.playerHistory.identified(serverId, event.slot_id, event.name, event.id);
      watched.joins.identified(key(event), event.id);
    } else await this.left(serverId, watched, event.slot_id, event.name, at);
    // The list itself right after: the `players` event follows the message, not the next poll.
    void watched.job.runNow();
  }

  /**
   * A visit begun (by the poll or the game's message, whichever came first): webhooks hear of it once,
   * with its identity (see JoinAnnouncements: the game's join message may come before its identity's).
   */
  private async joined(
    serverId: number,
    watched: Watched,
    slotId: string,
    name: string,
    id: PlayerIdentity | null,
    at: string,
  ): Promise<void> {
    if (await this.repos.playerHistory.joined(serverId, slotId, name, id, at))
      watched.joins.began(key({ slot_id: slotId, name }), name, id, this.clock.now());
  }

  private async left(serverId: number, watched: Watched, slotId: string, name: string, at: string): Promise<void> {
    watched.joins.ended(key({ slot_id: slotId, name }));
    const visit = await this.repos.playerHistory.left(serverId, slotId, name, at);
    if (visit) void this.outbox.emitAbout('player.left', serverId, { player_name: name, guid: visit.guid });
  }

  /** Drops visits that ended more than `days` ago; run by the history retention job. */
  async prune(days: number, fence?: Fence): Promise<number> {
    return this.repos.playerHistory.pruneEndedBefore(isoAgo(this.clock, days * 86_400_000), fence);
  }

  /** The players on now; `detailed`: with who they are and their address (for those who may kick or ban them). */
  async list(serverId: number, detailed = false): Promise<Static<typeof PlayerList>> {
    await this.servers.row(serverId);
    const players = this.watched.get(serverId)?.players ?? [];
    return { server_id: serverId, player_count: players.length, players: detailed ? shownToAdmins(players) : shown(players) };
  }

  async history(serverId: number, query: { limit?: number; offset?: number; search?: string }) {
    await this.servers.row(serverId);
    const { total, rows } = await this.repos.playerHistory.page(serverId, {
      limit: query.limit ?? 100,
      offset: query.offset ?? 0,
      ...(query.search ? { search: query.search } : {}),
    });
    return { total, items: rows.map((r) => ({ ...r, guid: r.guid ?? '' })) };
  }

  async kick(serverId: number, slotId: string, reason: string, actor: Actor): Promise<LivePlayer> {
    const { player, remote } = await this.inSlot(serverId, slotId);
    if (!remote.kick) throw new ApiError('NOT_SUPPORTED', 'this game type has no kick command');
    await remote.kick(this.remoteAdmin.run(serverId), slotId, reason);
    void this.watched.get(serverId)?.job.runNow();
    await this.audit.recordAlone({ serverId, type: 'kick', actor, detail: { slot_id: slotId, name: player.name, reason } });
    return player;
  }

  /** Bans the player in the slot by the identity the game reported (the game told of it), then kicks him out at once. */
  async ban(serverId: number, slotId: string, body: Static<typeof PlayerBanRequest>, actor: Actor): Promise<Ban> {
    const { player, remote, adapter } = await this.inSlot(serverId, slotId);
    if (!player.id) {
      const what = adapter.identities?.[0]?.label ?? 'identity';
      throw new ApiError('VALIDATION_ERROR', `the game has not reported the ${what} of ${player.name} yet; try again in a moment`);
    }
    const ban = await this.bans.create(
      serverId,
      {
        player_uid: player.id.value,
        ban_type: player.id.kind,
        reason: body.reason,
        duration_minutes: body.duration_minutes ?? 0,
        name: player.name,
      },
      actor,
      { slot_id: slotId, name: player.name },
    );
    // A player who left meanwhile is fine.
    if (remote.kick)
      await remote.kick(this.remoteAdmin.run(serverId), slotId, body.reason || 'banned').catch((err: unknown) => expectOnly(err, ApiError));
    void this.watched.get(serverId)?.job.runNow();
    return ban;
  }

  /** The player in `slotId` right now (a fresh poll), or 404; 409 when the server does not run. */
  private async inSlot(serverId: number, slotId: string) {
    const { row, capability: remote } = await this.servers.withCapability(serverId, 'remote_admin');
    if (!ACTIVE_STATUSES.includes(row.status) || row.status === 'stopping')
      throw new ApiError('SERVER_NOT_RUNNING', `server ${serverId} is ${row.status}`);
    const player = (await remote.listPlayers(this.remoteAdmin.run(serverId))).find((p) => p.slot_id === slotId);
    if (!player) throw new ApiError('NOT_FOUND', `no player in slot ${slotId}`);
    return { player, remote, adapter: this.adapters.get(row.game_type) };
  }
}
