import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { WebhookService } from './service.js';

export function webhookRoutes(routes: RouteTable, webhooks: WebhookService): void {
  routes.implement(endpoints.listWebhooks, async () => webhooks.list());
  routes.implement(endpoints.createWebhook, async ({ body, actor }) => webhooks.create(body, actor));
  routes.implement(endpoints.getWebhook, async ({ params }) => webhooks.get(params.webhook_id));
  routes.implement(endpoints.updateWebhook, async ({ params, body, actor }) => webhooks.update(params.webhook_id, body, actor));
  routes.implement(endpoints.deleteWebhook, async ({ params, actor }) => webhooks.delete(params.webhook_id, actor));
  routes.implement(endpoints.rotateWebhookSecret, async ({ params, actor }) => webhooks.rotateSecret(params.webhook_id, actor));
  routes.implement(endpoints.testWebhook, async ({ params, actor }) => webhooks.test(params.webhook_id, actor));
  routes.implement(endpoints.listWebhookDeliveries, async ({ params, query }) => webhooks.deliveries(params.webhook_id, query));
  routes.implement(endpoints.redeliverWebhookDelivery, async ({ params, actor }) =>
    webhooks.redeliver(params.webhook_id, params.delivery_id, actor),
  );
}
