import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ACTIVE_STATUSES, ApiError, redactPasswords, type Actor, type RemoteAdminSession, type RunCommand } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { DataSettings } from '../db/settings.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import { ServerService } from '../servers/service.js';
import { ConfigService } from '../config/service.js';
import { serverContext } from '../servers/context.js';
import { AuditService } from '../audit/service.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { PrometheusInstruments } from '../prometheus/instruments.js';
import { WebhookOutbox } from '../webhooks/outbox.js';

/** The most of a command line the audit trail keeps. */
const AUDITED_LINE = 1000;

interface CachedSession {
  /** Port and password it was opened with: a config change means a new session. */
  key: string;
  session: Promise<RemoteAdminSession>;
}

/** One remote-admin session per server, opened on first use and reused; the adapter's client keeps it alive. */
@injectable()
export class RemoteAdminService implements Lifecycle {
  private readonly sessions = new Map<number, CachedSession>();
  /** Whether the last command over each server's session was answered. */
  private readonly answered = new Map<number, boolean>();
  /** Servers whose remote admin stopped answering while it ran (webhooks were told; they hear when it is back). */
  private readonly lost = new Set<number>();

  constructor(
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ConfigService) private readonly config: ConfigService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(PrometheusInstruments) private readonly instruments: PrometheusInstruments,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
  ) {}

  /** Whether remote admin to the server works now: a session is open and its last command was answered. */
  connected(serverId: number): boolean {
    return this.sessions.has(serverId) && this.answered.get(serverId) === true;
  }

  /** The server's session (opened if need be), e.g. to listen to the game's messages. */
  async session(serverId: number): Promise<RemoteAdminSession> {
    const server = await this.servers.row(serverId);
    const remote = this.adapters.require(this.adapters.get(server.game_type), 'remote_admin');
    // `stopping` too: the shutdown command itself goes this way.
    if (!ACTIVE_STATUSES.includes(server.status)) {
      void this.drop(serverId); // a session to a game that is gone would only keep pinging it
      throw new ApiError('SERVER_NOT_RUNNING', `server ${serverId} is ${server.status}; remote admin needs a running server`);
    }
    const target = remote.target(await this.config.effectiveConfig(server), serverContext(server, this.settings.dataDir));
    if (!target) throw new ApiError('NO_RCON_PASSWORD', `server ${serverId} has no remote-admin password, or remote admin is disabled`);

    const key = `${target.host}:${target.port}:${target.password}`;
    const cached = this.sessions.get(serverId);
    if (cached?.key === key) return cached.session;
    if (cached) void this.drop(serverId);
    const session = remote.connect(target);
    this.sessions.set(serverId, { key, session });
    // A failed connection is forgotten, so the next request tries again.
    // (Its failure itself is told to whoever awaits it.)
    void Promise.allSettled([session]).then(([outcome]) => {
      if (outcome.status === 'rejected' && this.sessions.get(serverId)?.session === session) this.sessions.delete(serverId);
    });
    return session;
  }

  /** A command someone typed: refused (400) when the adapter says the game would take it wrongly. */
  async adminCommand(serverId: number, text: string, actor: Actor): Promise<string> {
    const remote = this.adapters.get((await this.servers.row(serverId)).game_type).capabilities.remote_admin;
    const problem = remote?.commandProblem?.(text);
    if (problem) throw new ApiError('VALIDATION_ERROR', `field 'command': ${problem}`);
    const response = await this.command(serverId, text);
    // The whole line, as the game's rule redacts it (a password it sets becomes ***), at most AUDITED_LINE.
    const line = (remote?.redactCommand ?? redactPasswords)(text.trim()).slice(0, AUDITED_LINE);
    // The command's name from the redacted line, up to a quote or a `;` too: `"rcon_password"x` is no name to keep whole.
    await this.audit.recordAlone({ serverId, type: 'command', actor, detail: { command: line.split(/[\s;"]/).find(Boolean) ?? '', line } });
    return response;
  }

  /** A message to every player, by the adapter's `say`. */
  async say(serverId: number, message: string, actor: Actor): Promise<void> {
    const remote = this.adapters.get((await this.servers.row(serverId)).game_type).capabilities.remote_admin;
    if (!remote?.say) throw new ApiError('NOT_SUPPORTED', 'this game type has no command to message every player');
    await remote.say(this.run(serverId), message);
    await this.audit.recordAlone({ serverId, type: 'command', actor, detail: { command: 'say', message: message.slice(0, AUDITED_LINE) } });
  }

  /**
   * What the adapter's operations (list players, kick, ban…) send their commands through: the server's
   * one session, measured and watched like every command. The game's command text is the adapter's.
   */
  run(serverId: number): RunCommand {
    return (text) => this.command(serverId, text);
  }

  async command(serverId: number, text: string): Promise<string> {
    const started = performance.now();
    try {
      const answer = await this.commandOnce(serverId, text);
      this.answered.set(serverId, true);
      if (this.lost.delete(serverId)) void this.outbox.emitAbout('rcon.restored', serverId, {});
      this.instruments.rconCommand(serverId, (performance.now() - started) / 1000, true);
      return answer;
    } catch (err) {
      // Refused before it was sent (a command the protocol cannot carry): the connection lost nothing.
      if (err instanceof ApiError && err.code === 'VALIDATION_ERROR') throw err;
      if (this.sessions.has(serverId)) {
        // Lost only after it had answered: a game still booting has not lost anything.
        if (this.answered.get(serverId) === true && !this.lost.has(serverId)) {
          this.lost.add(serverId);
          void this.outbox.emitAbout('rcon.lost', serverId, { error: (err as Error).message.slice(0, 300) });
        }
        this.answered.set(serverId, false);
      }
      this.instruments.rconCommand(serverId, (performance.now() - started) / 1000, false);
      throw err;
    }
  }

  private async commandOnce(serverId: number, text: string): Promise<string> {
    const earlier = this.sessions.get(serverId);
    try {
      let session: RemoteAdminSession;
      try {
        session = await this.session(serverId);
      } catch (err) {
        // A connection attempt begun before this command (while the game was still booting) failed:
        // that says little about now, so one fresh attempt.
        if (!earlier || (err instanceof ApiError && err.code !== 'RCON_ERROR')) throw err;
        await this.drop(serverId);
        session = await this.session(serverId);
      }
      return await session.command(text);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      this.logger.warn({ err, serverId }, 'remote admin failed');
      throw new ApiError('RCON_ERROR', `remote admin failed: ${(err as Error).message}`, { cause: err });
    }
  }

  async drop(serverId: number): Promise<void> {
    const cached = this.sessions.get(serverId);
    this.sessions.delete(serverId);
    this.answered.delete(serverId);
    this.lost.delete(serverId);
    // A session that never connected was told to whoever asked for it; one that did is closed.
    const [outcome] = await Promise.allSettled([cached?.session]);
    const unclosed = (err: unknown) => this.logger.warn({ err, serverId }, 'the remote-admin session did not close cleanly');
    if (outcome.status === 'fulfilled') await outcome.value?.close().catch(unclosed);
  }

  /** At the service's stop: every session closed. */
  async stop(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.drop(id)));
  }
}
