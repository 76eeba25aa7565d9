import { playerEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { PlayerHistoryRepository } from '../db/repositories/player-history.js';
import { PlayerService } from './service.js';
import { playerRoutes } from './routes.js';

const repositories = { playerHistory: PlayerHistoryRepository };

export const playersModule: FeatureModule<typeof repositories> = {
  name: 'players',
  // It polls the running games over remote admin.
  needs: ['jobs', 'rcon', 'processes'],
  repositories,
  services: [PlayerService],
  endpoints: [playerEndpoints.listPlayers, playerEndpoints.playerHistory, playerEndpoints.kickPlayer, playerEndpoints.banPlayer],
  routes: (routes, c) => playerRoutes(routes, c.resolve(PlayerService)),
  parts: (c) => [['players', c.resolve(PlayerService)]],
};
