import type { Caller, Result } from './calls.js';

export const system = (c: Caller) => ({
  health: (): Result<'health'> => c.call('health'),
  status: (): Result<'systemStatus'> => c.call('systemStatus'),
  /** Whether Prometheus metrics are served, and where (admins). */
  integrations: (): Result<'getIntegrations'> => c.call('getIntegrations'),
});
