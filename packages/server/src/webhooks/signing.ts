import { createHmac, randomBytes } from 'node:crypto';

/** A new endpoint secret in Standard Webhooks' form: `whsec_` and 24 random bytes in base64. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** A delivery's id (`webhook-id`): the same on every attempt and redelivery, for the receiver to drop repeats. */
export const newEventId = (): string => `msg_${randomBytes(16).toString('base64url')}`;

/**
 * `webhook-signature` of Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the
 * secret's bytes, one per valid secret (space-separated while a rotated-out secret still counts).
 */
export function signature(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
          .update(`${id}.${timestamp}.${body}`)
          .digest('base64')}`,
    )
    .join(' ');
}
