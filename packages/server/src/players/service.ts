import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, type LivePlayer, type PlayerEvent, type PlayerList, type RemoteAdminSession, type Static } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Settings } from '../settings.js';
import type { Models } from '../db/models/index.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { EventBus } from '../events/bus.js';
import type { ProcessWatch } from '../supervisor/supervisor.js';
import { RemoteAdminService } from '../rcon/service.js';
import { ServerService } from '../servers/service.js';
import { LiveFigures } from '../metrics/live-values.js';
import { whereContains } from '../db/text-search.js';

interface Watched {
  timer: NodeJS.Timeout;
  players: LivePlayer[];
  /** The remote-admin session whose messages are listened to. */
  session: RemoteAdminSession | null;
  stopListening: (() => void) | null;
  polling: Promise<void>;
  soon: NodeJS.Timeout | null;
}

const now = () => new Date().toISOString();
const key = (p: { slot_id: string; name: string }) => `${p.slot_id}\u0000${p.name}`;
/** What clients see of a player: never the GUID, which the history and bans keep. */
const shown = (players: LivePlayer[]) => players.map(({ slot_id, name, ping }) => ({ slot_id, name, ping }));

/**
 * The players of each running game: polled over remote admin (a `players` event when the list changes),
 * and followed through the game's join and leave messages, so that the history records a player who
 * stayed less than one poll.
 */
@injectable()
export class PlayerService implements ProcessWatch {
  private readonly watched = new Map<number, Watched>();

  constructor(
    @inject(TOKENS.Models) private readonly models: Models,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(RemoteAdminService) private readonly remoteAdmin: RemoteAdminService,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(LiveFigures) private readonly live: LiveFigures,
  ) {
    // The first poll may come before the game answers remote admin: poll again the moment it is running.
    events.subscribe((event) => {
      if (event.type === 'server_status' && event.data.status === 'running') this.poll(event.server_id);
    });
  }

  attached(serverId: number): void {
    this.detached(serverId, 'unwatched');
    const watched: Watched = { players: [], session: null, stopListening: null, polling: Promise.resolve(), soon: null, timer: setInterval(() => this.poll(serverId), this.settings.playersPollMs) };
    this.watched.set(serverId, watched);
    this.poll(serverId);
  }

  detached(serverId: number, why: 'gone' | 'unwatched' = 'gone'): void {
    const watched = this.watched.get(serverId);
    if (!watched) return;
    this.watched.delete(serverId);
    clearInterval(watched.timer);
    clearTimeout(watched.soon ?? undefined);
    watched.stopListening?.();
    if (why === 'unwatched') return; // the game runs on; its players stay on
    if (watched.players.length) this.events.publish({ type: 'players', server_id: serverId, data: { players: [], count: 0 } });
    // Whoever was on has left with the server.
    void this.models.Server.knex()('player_history').where({ server_id: serverId }).whereNull('left_at').update({ left_at: now() }).catch(() => {});
  }

  /** Polls now (queued behind a poll in flight). */
  private poll(serverId: number): void {
    const watched = this.watched.get(serverId);
    if (!watched) return;
    watched.polling = watched.polling.then(() => this.pollOnce(serverId, watched)).catch((err) => {
      this.logger.debug({ serverId, err: (err as Error).message }, 'player poll failed');
    });
  }

  private async pollOnce(serverId: number, watched: Watched): Promise<void> {
    if (this.watched.get(serverId) !== watched) return;
    const row = await this.servers.row(serverId);
    // Not before the game answers: a login tried while it boots would only wait out its time-out.
    if (row.status !== 'running') return;
    const remote = this.adapters.get(row.game_type).capabilities.remote_admin;
    if (!remote) return;
    const players = remote.parsePlayers(await this.remoteAdmin.command(serverId, 'players'));
    if (this.watched.get(serverId) !== watched) return;
    await this.listen(serverId, watched);
    const before = new Map(watched.players.map((p) => [key(p), p]));
    const after = new Map(players.map((p) => [key(p), p]));
    for (const [k, p] of after) if (!before.has(k)) await this.joined(serverId, p.slot_id, p.name, p.guid);
    for (const [k, p] of before) if (!after.has(k)) await this.left(serverId, p.slot_id, p.name);
    const changed = before.size !== after.size || [...after.keys()].some((k) => !before.has(k));
    watched.players = players;
    this.live.update(serverId, { player_count: players.length });
    if (changed) {
      this.events.publish({ type: 'players', server_id: serverId, data: { players: shown(players), count: players.length } });
    }
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
      // In order: a GUID message must find the row its join message made.
      if (event) watched.polling = watched.polling.then(() => this.onPlayerEvent(serverId, event)).catch(() => {});
    });
  }

  private async onPlayerEvent(serverId: number, event: PlayerEvent): Promise<void> {
    if (event.kind === 'joined') await this.joined(serverId, event.slot_id, event.name, null);
    else if (event.kind === 'guid') await this.open(serverId, event.slot_id, event.name).update({ guid: event.guid });
    else await this.left(serverId, event.slot_id, event.name);
    // Soon after a join or leave, the list itself: the `players` event follows the message, not the next poll.
    const watched = this.watched.get(serverId);
    if (watched && !watched.soon) {
      watched.soon = setTimeout(() => {
        watched.soon = null;
        this.poll(serverId);
      }, 100);
    }
  }

  private open(serverId: number, slotId: string, name: string) {
    return this.models.Server.knex()('player_history').where({ server_id: serverId, slot_id: slotId, player_name: name }).whereNull('left_at');
  }

  private async joined(serverId: number, slotId: string, name: string, guid: string | null): Promise<void> {
    const existing = await this.open(serverId, slotId, name).first('id', 'guid');
    if (existing) {
      if (guid && !existing.guid) await this.models.Server.knex()('player_history').where({ id: existing.id }).update({ guid });
      return;
    }
    await this.models.Server.knex()('player_history').insert({ server_id: serverId, slot_id: slotId, player_name: name.slice(0, 255), guid, joined_at: now(), left_at: null });
  }

  private async left(serverId: number, slotId: string, name: string): Promise<void> {
    await this.open(serverId, slotId, name).update({ left_at: now() });
  }

  /** Drops visits that ended more than `days` ago; run by the history retention job. */
  async prune(days: number): Promise<void> {
    const cutoff = new Date(Date.now() - days * 86_400_000).toISOString();
    await this.models.Server.knex()('player_history').whereNotNull('left_at').andWhere('left_at', '<', cutoff).delete();
  }

  async list(serverId: number): Promise<Static<typeof PlayerList>> {
    await this.servers.row(serverId);
    const players = this.watched.get(serverId)?.players ?? [];
    return { server_id: serverId, player_count: players.length, players: shown(players) };
  }

  async history(serverId: number, query: { limit?: number; offset?: number; search?: string }) {
    await this.servers.row(serverId);
    const base = this.models.Server.knex()('player_history').where('server_id', serverId);
    if (query.search) whereContains(base, 'player_name', query.search);
    const [{ count }] = await base.clone().count({ count: '*' });
    const rows = await base.clone().orderBy('id', 'desc').limit(query.limit ?? 100).offset(query.offset ?? 0).select('id', 'player_name', 'guid', 'joined_at', 'left_at');
    return { total: Number(count), items: rows.map((r) => ({ id: Number(r.id), player_name: r.player_name, guid: r.guid ?? '', joined_at: r.joined_at, left_at: r.left_at })) };
  }

  /** The player in `slotId` right now (a fresh poll), or 404; 409 when the server does not run. */
  async playerInSlot(serverId: number, slotId: string): Promise<LivePlayer> {
    return (await this.inSlot(serverId, slotId)).player;
  }

  async kick(serverId: number, slotId: string, reason: string): Promise<LivePlayer> {
    const { player, remote } = await this.inSlot(serverId, slotId);
    if (!remote.kickCommand) throw new ApiError('NOT_SUPPORTED', 'this game type has no kick command');
    await this.remoteAdmin.command(serverId, remote.kickCommand(slotId, reason));
    this.poll(serverId);
    return player;
  }

  private async inSlot(serverId: number, slotId: string) {
    const { row, capability: remote } = await this.servers.withCapability(serverId, 'remote_admin');
    if (!['starting', 'running'].includes(row.status)) throw new ApiError('SERVER_NOT_RUNNING', `server ${serverId} is ${row.status}`);
    const player = remote.parsePlayers(await this.remoteAdmin.command(serverId, 'players')).find((p) => p.slot_id === slotId);
    if (!player) throw new ApiError('NOT_FOUND', `no player in slot ${slotId}`);
    return { player, remote };
  }
}
