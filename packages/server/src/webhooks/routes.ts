import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { WebhookService } from './service.js';

export function webhookRoutes(routes: RouteTable, webhooks: WebhookService): void {
  routes.implement(endpoints.listWebhooks, async () => webhooks.list());
  routes.implement(endpoints.createWebhook, async ({ body }) => webhooks.create(body));
  routes.implement(endpoints.getWebhook, async ({ params }) => webhooks.get(params.webhook_id));
  routes.implement(endpoints.updateWebhook, async ({ params, body }) => webhooks.update(params.webhook_id, body));
  routes.implement(endpoints.deleteWebhook, async ({ params }) => webhooks.delete(params.webhook_id));
  routes.implement(endpoints.rotateWebhookSecret, async ({ params }) => webhooks.rotateSecret(params.webhook_id));
  routes.implement(endpoints.testWebhook, async ({ params }) => webhooks.test(params.webhook_id));
  routes.implement(endpoints.listWebhookDeliveries, async ({ params, query }) => webhooks.deliveries(params.webhook_id, query));
  routes.implement(endpoints.redeliverWebhookDelivery, async ({ params }) => webhooks.redeliver(params.webhook_id, params.delivery_id));
}
