import { scheduleEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { scheduleSettings, type ScheduleSettings } from './settings.js';
import { ScheduleRepository } from '../db/repositories/schedules.js';
import { ScheduleActionRegistry } from './action-registry.js';
import { ScheduleService } from './service.js';
import { ScheduleRunner } from './runner.js';
import { ScheduleActions } from './actions.js';
import { RunConditions } from './conditions.js';
import { RunContext } from './execution.js';
import { scheduleRoutes } from './routes.js';

const repositories = { schedules: ScheduleRepository };

export const schedulesModule: FeatureModule<typeof repositories, ScheduleSettings> = {
  name: 'schedules',
  settings: scheduleSettings,
  // A run starts, stops and restarts games and takes backups: it starts after what it drives.
  needs: ['jobs', 'cluster', 'audit', 'supervisor', 'backups'],
  repositories,
  services: [ScheduleActionRegistry, ScheduleService, ScheduleRunner, ScheduleActions, RunConditions, RunContext],
  endpoints: Object.values(scheduleEndpoints),
  routes: (routes, c) => scheduleRoutes(routes, c.resolve(ScheduleService)),
  parts: (c) => [['schedules', c.resolve(ScheduleRunner)]],
};
