import { inject, injectable } from 'tsyringe';
import { ApiError, type Actor } from '@garrison/core';
import { ServerService } from '../servers/service.js';
import { RemoteAdminService } from '../rcon/service.js';
import { AuditService } from '../audit/service.js';
import { MissionService } from './service.js';
import { missionWithOptions, rotationOptionsOf } from './options.js';

/** "Play this mission now": an installed mission, with the game's rotation options, by the game's remote admin. */
@injectable()
export class MissionPlay {
  constructor(
    @inject(ServerService) private readonly servers: ServerService,
    @inject(MissionService) private readonly missions: MissionService,
    @inject(RemoteAdminService) private readonly remoteAdmin: RemoteAdminService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /** `sent`: the options as the request gave them (in any form the game reads), checked and stored by the game's rule. */
  async play(
    serverId: number,
    name: string,
    sent: Record<string, unknown>,
    actor: Actor,
  ): Promise<{ message: string; name: string } & Record<string, string>> {
    const adapter = await this.servers.adapterOf(serverId);
    const remote = adapter.capabilities.remote_admin;
    const manager = adapter.capabilities.mission_manager;
    if (!remote?.playMission || !manager) throw new ApiError('NOT_SUPPORTED', 'this game type has no command to play a mission now');
    const options = rotationOptionsOf(manager, sent, {
      problem: (option) => (option === null ? 'request body' : `field '${option}'`),
      path: (option) => option,
    });
    // Only a mission the game has: a name the game does not know would leave the players on a stopped mission.
    const { missions } = await this.missions.list(serverId);
    if (!missions.some((m) => m.name === name))
      throw new ApiError('NOT_FOUND', `no mission ${JSON.stringify(name)} is installed on server ${serverId}`);
    await remote.playMission((text) => this.remoteAdmin.command(serverId, text), name, options);
    await this.audit.recordAlone({ serverId, type: 'mission_played', actor, detail: { name, ...options } });
    return { message: `playing ${missionWithOptions(name, options)}`, name, ...options };
  }
}
