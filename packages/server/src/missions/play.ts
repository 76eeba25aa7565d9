import { inject, injectable } from 'tsyringe';
import { ApiError, canonicalDifficulty, ROTATION_DIFFICULTIES, type Actor } from '@garrison/core';
import { ServerService } from '../servers/service.js';
import { RemoteAdminService } from '../rcon/service.js';
import { AuditService } from '../audit/service.js';
import { MissionService } from './service.js';

/** "Play this mission now": an installed mission, in the command the game's adapter names for it. */
@injectable()
export class MissionPlay {
  constructor(
    @inject(ServerService) private readonly servers: ServerService,
    @inject(MissionService) private readonly missions: MissionService,
    @inject(RemoteAdminService) private readonly remoteAdmin: RemoteAdminService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  async play(
    serverId: number,
    name: string,
    difficultyIn: string | undefined,
    actor: Actor,
  ): Promise<{ message: string; name: string; difficulty: string }> {
    const command = (await this.servers.adapterOf(serverId)).capabilities.remote_admin?.missionCommand;
    if (!command) throw new ApiError('NOT_SUPPORTED', 'this game type has no command to play a mission now');
    const difficulty = canonicalDifficulty(difficultyIn ?? '');
    if (difficulty === null) {
      throw new ApiError(
        'VALIDATION_ERROR',
        `field 'difficulty': ${JSON.stringify(difficultyIn)} is none ` +
          `of ${ROTATION_DIFFICULTIES.map((d) => JSON.stringify(d)).join(', ')} (in any case)`,
      );
    }
    // Only a mission the game has: a name the game does not know would leave the players on a stopped mission.
    const { missions } = await this.missions.list(serverId);
    if (!missions.some((m) => m.name === name))
      throw new ApiError('NOT_FOUND', `no mission ${JSON.stringify(name)} is installed on server ${serverId}`);
    await this.remoteAdmin.command(serverId, command(name, difficulty || undefined));
    await this.audit.recordAlone({ serverId, type: 'mission_played', actor, detail: { name, difficulty } });
    return { message: `playing ${name}${difficulty ? ` (${difficulty})` : ''}`, name, difficulty };
  }
}
