import { defineEndpoint } from '../endpoint.js';
import { Health, Integrations, SystemStatus } from './system.js';

/** The service's own state. */
export const systemEndpoints = {
  health: defineEndpoint({
    operationId: 'health',
    method: 'GET',
    path: '/system/health',
    tag: 'system',
    summary: 'Liveness',
    access: 'public',
    scope: 'servers:read',
    status: 200,
    response: Health,
    envelope: 'none',
  }),
  systemStatus: defineEndpoint({
    operationId: 'systemStatus',
    method: 'GET',
    path: '/system/status',
    tag: 'system',
    summary: 'Service summary',
    access: 'any',
    scope: 'servers:read',
    status: 200,
    response: SystemStatus,
    envelope: 'without-error',
  }),
  getIntegrations: defineEndpoint({
    operationId: 'getIntegrations',
    method: 'GET',
    path: '/system/integrations',
    tag: 'system',
    summary: 'Whether Prometheus metrics are served, and where',
    access: 'admin',
    scope: 'admin',
    status: 200,
    response: Integrations,
  }),
} as const;
