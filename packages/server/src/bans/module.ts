import { playerEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { BanRepository } from '../db/repositories/bans.js';
import { BanService } from './service.js';
import { banRoutes } from './routes.js';

const repositories = { bans: BanRepository };

export const bansModule: FeatureModule<typeof repositories> = {
  name: 'bans',
  // It hears of new servers from the audit trail and tells running games over remote admin.
  needs: ['jobs', 'audit', 'rcon'],
  repositories,
  services: [BanService],
  endpoints: [playerEndpoints.listBans, playerEndpoints.createBan, playerEndpoints.revokeBan],
  routes: (routes, c) => banRoutes(routes, c.resolve(BanService)),
  parts: (c) => [['bans', c.resolve(BanService)]],
};
