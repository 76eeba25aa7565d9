import type { InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import type { Settings } from './settings.js';
import type { Models } from './db/models/index.js';
import type { AdapterRegistry } from './plugins/registry.js';
import type { EventBus } from './events/bus.js';

/** Injection tokens: every constructor parameter is injected by one of these, never by reflected type. */
export const TOKENS = {
  Settings: Symbol('Settings') as InjectionToken<Settings>,
  Logger: Symbol('Logger') as InjectionToken<Logger>,
  Models: Symbol('Models') as InjectionToken<Models>,
  Adapters: Symbol('Adapters') as InjectionToken<AdapterRegistry>,
  Events: Symbol('Events') as InjectionToken<EventBus>,
};
