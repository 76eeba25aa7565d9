import { declareSettings, integer, onOff } from '../setting-specs.js';

export interface WebhookSettings {
  /** Lets webhooks go to loopback, link-local and private addresses (a receiver on the same network; tests). */
  webhookAllowPrivate: boolean;
  /** How often the delivering instance looks for webhook deliveries that came due (new ones wake it at once). */
  webhookPollMs: number;
}

export const webhookSettings = declareSettings<WebhookSettings>({
  feature: 'webhooks',
  defaults: { webhookAllowPrivate: false, webhookPollMs: 1_000 },
  specs: [
    {
      key: 'webhookPollMs',
      env: 'GARRISON_WEBHOOK_POLL_MS',
      meaning: "how often due webhook deliveries (retries, other instances' events) are looked for",
      doc: {
        meaning:
          "how often due webhook deliveries (retries, other instances' events) are looked for; a delivery made on the delivering " +
          'instance goes at once',
      },
      parse: integer(100),
    },
    {
      key: 'webhookAllowPrivate',
      env: 'GARRISON_WEBHOOK_ALLOW_PRIVATE',
      shownDefault: '0',
      meaning: '1 lets webhooks go to loopback, link-local and private addresses (a receiver on your own network); 0 refuses them',
      doc: {
        meaning:
          '`1` lets webhooks go to loopback, link-local and private addresses (a receiver on your own network); with `0` such URLs ' +
          'are refused when saved and again at each send',
        default: '`0`',
      },
      parse: onOff,
    },
  ],
});
