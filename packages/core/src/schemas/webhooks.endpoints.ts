import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import {
  CreateWebhookRequest, CreatedWebhook, RotatedSecret, UpdateWebhookRequest, Webhook, WebhookDelivery, WebhookDeliveryPage,
  WebhookDeliveryParams, WebhookDeliveryQuery, WebhookIdParams,
} from './webhooks.js';

/** Webhooks: signed deliveries of what happens, and Discord channels (admins). */
export const webhookEndpoints = {
  listWebhooks: defineEndpoint({
    operationId: 'listWebhooks', method: 'GET', path: '/webhooks', tag: 'webhooks', summary: 'The webhook endpoints (URLs masked)',
    access: 'admin', scope: 'admin', status: 200, response: Type.Array(Webhook),
  }),
  createWebhook: defineEndpoint({
    operationId: 'createWebhook', method: 'POST', path: '/webhooks', tag: 'webhooks',
    summary: 'Add a webhook endpoint; its secret is shown once', access: 'admin', scope: 'admin', body: CreateWebhookRequest, status: 201,
    response: CreatedWebhook, errors: ['VALIDATION_ERROR'],
  }),
  getWebhook: defineEndpoint({
    operationId: 'getWebhook', method: 'GET', path: '/webhooks/{webhook_id}', tag: 'webhooks', summary: 'One webhook endpoint',
    access: 'admin', scope: 'admin', params: WebhookIdParams, status: 200, response: Webhook, errors: ['NOT_FOUND'],
  }),
  updateWebhook: defineEndpoint({
    operationId: 'updateWebhook', method: 'PUT', path: '/webhooks/{webhook_id}', tag: 'webhooks',
    summary: 'Change a webhook endpoint (enabling it again clears why it was disabled)', access: 'admin', scope: 'admin',
    params: WebhookIdParams, body: UpdateWebhookRequest, status: 200, response: Webhook, errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  }),
  deleteWebhook: defineEndpoint({
    operationId: 'deleteWebhook', method: 'DELETE', path: '/webhooks/{webhook_id}', tag: 'webhooks',
    summary: 'Remove a webhook endpoint and its delivery log', access: 'admin', scope: 'admin', params: WebhookIdParams, status: 204,
    errors: ['NOT_FOUND'],
  }),
  rotateWebhookSecret: defineEndpoint({
    operationId: 'rotateWebhookSecret', method: 'POST', path: '/webhooks/{webhook_id}/rotate-secret', tag: 'webhooks',
    summary: 'A new secret; the previous one stays valid for 24 h', access: 'admin', scope: 'admin', params: WebhookIdParams, status: 200,
    response: RotatedSecret, errors: ['NOT_FOUND'],
  }),
  testWebhook: defineEndpoint({
    operationId: 'testWebhook', method: 'POST', path: '/webhooks/{webhook_id}/test', tag: 'webhooks',
    summary: 'Send a webhook.test delivery now', access: 'admin', scope: 'admin', params: WebhookIdParams, status: 202,
    response: WebhookDelivery, errors: ['NOT_FOUND'],
  }),
  listWebhookDeliveries: defineEndpoint({
    operationId: 'listWebhookDeliveries', method: 'GET', path: '/webhooks/{webhook_id}/deliveries', tag: 'webhooks',
    summary: 'The delivery log of an endpoint, newest first', access: 'admin', scope: 'admin', params: WebhookIdParams,
    query: WebhookDeliveryQuery, status: 200, response: WebhookDeliveryPage, errors: ['NOT_FOUND'],
  }),
  redeliverWebhookDelivery: defineEndpoint({
    operationId: 'redeliverWebhookDelivery', method: 'POST', path: '/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
    tag: 'webhooks', summary: 'Send a delivery again (same webhook-id), whatever became of it', access: 'admin', scope: 'admin',
    params: WebhookDeliveryParams, status: 202, response: WebhookDelivery, errors: ['NOT_FOUND'],
  }),
} as const;
