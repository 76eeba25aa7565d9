import type { Caller, Body, Query, Result } from './calls.js';

/** Signed deliveries of what happens (Standard Webhooks) and Discord channels (admins). */
export const webhooks = (c: Caller) => ({
  list: (): Result<'listWebhooks'> => c.call('listWebhooks'),
  /** The answer carries the endpoint's `secret` this once. */
  create: (body: Body<'createWebhook'>): Result<'createWebhook'> => c.call('createWebhook', { body }),
  get: (webhook_id: number): Result<'getWebhook'> => c.call('getWebhook', { params: { webhook_id } }),
  update: (webhook_id: number, body: Body<'updateWebhook'>): Result<'updateWebhook'> =>
    c.call('updateWebhook', { params: { webhook_id }, body }),
  delete: (webhook_id: number): Result<'deleteWebhook'> => c.call('deleteWebhook', { params: { webhook_id } }),
  /** A new secret; the previous one keeps signing for 24 h. */
  rotateSecret: (webhook_id: number): Result<'rotateWebhookSecret'> => c.call('rotateWebhookSecret', { params: { webhook_id } }),
  test: (webhook_id: number): Result<'testWebhook'> => c.call('testWebhook', { params: { webhook_id } }),
  deliveries: (webhook_id: number, query: Query<'listWebhookDeliveries'> = {}): Result<'listWebhookDeliveries'> =>
    c.call('listWebhookDeliveries', { params: { webhook_id }, query }),
  redeliver: (webhook_id: number, delivery_id: number): Result<'redeliverWebhookDelivery'> =>
    c.call('redeliverWebhookDelivery', { params: { webhook_id, delivery_id } }),
});
