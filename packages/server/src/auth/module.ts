import { accountEndpoints, apiKeyEndpoints, signInEndpoints, twoFactorEndpoints, userEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { UserRepository } from '../db/repositories/users.js';
import { ApiKeyRepository } from '../db/repositories/api-keys.js';
import { SessionRepository } from '../db/repositories/sessions.js';
import { TwoFactorRepository } from '../db/repositories/two-factor.js';
import { SecondStepRepository } from '../db/repositories/second-steps.js';
import { TokenService } from './tokens.js';
import { UserService } from './service.js';
import { ApiKeyService } from './api-keys.js';
import { SessionService } from './sessions.js';
import { TwoFactorService } from './two-factor.js';
import { authRoutes } from './routes.js';

const repositories = {
  users: UserRepository,
  apiKeys: ApiKeyRepository,
  sessions: SessionRepository,
  twoFactor: TwoFactorRepository,
  secondSteps: SecondStepRepository,
};

export const authModule: FeatureModule<typeof repositories> = {
  name: 'auth',
  repositories,
  services: [TokenService, SessionService, TwoFactorService, UserService, ApiKeyService],
  endpoints: Object.values({ ...signInEndpoints, ...twoFactorEndpoints, ...accountEndpoints, ...apiKeyEndpoints, ...userEndpoints }),
  routes: (routes, c) =>
    authRoutes(routes, c.resolve(UserService), c.resolve(ApiKeyService), c.resolve(SessionService), c.resolve(TwoFactorService)),
};
