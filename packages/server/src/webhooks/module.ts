import { webhookEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { WebhookRepository } from '../db/repositories/webhooks.js';
import { WebhookOutbox } from './outbox.js';
import { WebhookDeliverer } from './delivery.js';
import { WebhookService } from './service.js';
import { webhookRoutes } from './routes.js';

const repositories = { webhooks: WebhookRepository };

export const webhooksModule: FeatureModule<typeof repositories> = {
  name: 'webhooks',
  // It delivers what the audit trail puts in the outbox.
  needs: ['jobs', 'audit'],
  repositories,
  services: [WebhookOutbox, WebhookDeliverer, WebhookService],
  endpoints: Object.values(webhookEndpoints),
  routes: (routes, c) => webhookRoutes(routes, c.resolve(WebhookService)),
  parts: (c) => [['webhooks', c.resolve(WebhookDeliverer)]],
};
