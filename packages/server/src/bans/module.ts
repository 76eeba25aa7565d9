import { playerEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { banSettings, type BanSettings } from './settings.js';
import { BanRepository } from '../db/repositories/bans.js';
import { BanService } from './service.js';
import { BanFileWriter } from './ban-file-writer.js';
import { banRoutes } from './routes.js';

const repositories = { bans: BanRepository };

export const bansModule: FeatureModule<typeof repositories, BanSettings> = {
  name: 'bans',
  settings: banSettings,
  // It hears of new servers from the audit trail and tells running games over remote admin.
  needs: ['jobs', 'audit', 'rcon'],
  repositories,
  services: [BanService, BanFileWriter],
  endpoints: [playerEndpoints.listBans, playerEndpoints.createBan, playerEndpoints.revokeBan],
  routes: (routes, c) => banRoutes(routes, c.resolve(BanService)),
  parts: (c) => [['bans', c.resolve(BanService)]],
};
