import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, type RemoteAdminSession } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Settings } from '../settings.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import { ServerService } from '../servers/service.js';
import { ConfigService } from '../config/service.js';
import { serverContext } from '../servers/context.js';

interface CachedSession {
  /** Port and password it was opened with: a config change means a new session. */
  key: string;
  session: Promise<RemoteAdminSession>;
}

/** Statuses in which the game answers remote admin (`stopping`: the shutdown command itself goes this way). */
const REACHABLE = ['starting', 'running', 'stopping'];

/** One remote-admin session per server, opened on first use and reused; the adapter's client keeps it alive. */
@injectable()
export class RemoteAdminService {
  private readonly sessions = new Map<number, CachedSession>();

  constructor(
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ConfigService) private readonly config: ConfigService,
  ) {}

  /** The server's session (opened if need be), e.g. to listen to the game's messages. */
  async session(serverId: number): Promise<RemoteAdminSession> {
    const server = await this.servers.row(serverId);
    const remote = this.adapters.require(this.adapters.get(server.game_type), 'remote_admin');
    if (!REACHABLE.includes(server.status)) {
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
    session.catch(() => {
      if (this.sessions.get(serverId)?.session === session) this.sessions.delete(serverId);
    });
    return session;
  }

  async command(serverId: number, text: string): Promise<string> {
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
    await cached?.session.then((s) => s.close()).catch(() => {});
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.drop(id)));
  }
}
