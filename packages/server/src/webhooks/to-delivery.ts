import type { WebhookDelivery, WebhookEventType } from '@garrison/core';
import type { DeliveryRow } from '../db/repositories/webhooks.js';
import type { EventBus } from '../events/bus.js';

/** A delivery as its log lists it: no payload, and nothing of the endpoint (its URL's path, its secret). */
export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  webhook_id: row.webhook_id,
  event_id: row.event_id,
  event_type: row.event_type as WebhookEventType,
  server_id: row.server_id,
  attempt: row.attempt,
  status: row.status,
  response_status: row.response_status,
  response_snippet: row.response_snippet,
  error: row.error,
  next_attempt_at: row.next_attempt_at,
  delivered_at: row.delivered_at,
  duration_ms: row.duration_ms,
  created_at: row.created_at,
});

/**
 * Tells the admins' consoles what became of a delivery (`webhook_delivery`, admins only, see the event
 * catalogue): an open delivery log and a test's confirmation follow it without reading again.
 */
export function publishDelivery(events: EventBus, delivery: WebhookDelivery): WebhookDelivery {
  events.publish({ type: 'webhook_delivery', server_id: delivery.server_id ?? 0, data: delivery });
  return delivery;
}
