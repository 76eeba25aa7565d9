import type { Knex } from 'knex';
import { ConfigSectionModel } from './ConfigSectionModel.js';
import { ServerModel } from './ServerModel.js';
import { UserModel } from './UserModel.js';
import { ServerEventModel } from './ServerEventModel.js';

/** The models bound to one service's connection, so that several services can share a process (tests do). */
export function bindModels(knex: Knex) {
  return {
    User: UserModel.bindKnex(knex),
    Server: ServerModel.bindKnex(knex),
    ConfigSection: ConfigSectionModel.bindKnex(knex),
    ServerEvent: ServerEventModel.bindKnex(knex),
  };
}

export type Models = ReturnType<typeof bindModels>;
export { UserModel, ServerModel, ConfigSectionModel, ServerEventModel };
