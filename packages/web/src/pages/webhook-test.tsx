import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client } from '../session.js';
import { useQuery } from '../cache/use-query.js';

export type Delivery = ResponseOf<Endpoints['testWebhook']>;

/** The first page of an endpoint's delivery log, one cache entry shared by the log and a test's confirmation. */
export const DELIVERY_PAGE = 50;
export const useDeliveries = (webhookId: number) =>
  useQuery(`webhook-deliveries:${webhookId}`, () => client.webhooks.deliveries(webhookId, { limit: DELIVERY_PAGE }), 0);

/** The later of two states of one delivery (an event may come before the answer that names it). */
export const later = (a: Delivery, b: Delivery | undefined) =>
  b && (b.attempt > a.attempt || (b.attempt === a.attempt && a.status === 'pending' && b.status !== 'pending')) ? b : a;

/** What became of a delivery, as a sentence: sent and answered, waiting for its next attempt, or failed. */
function outcomeOf(d: Delivery): string {
  const answer = d.response_status !== null ? `answered ${d.response_status}` : d.error ? d.error : null;
  const took = d.duration_ms !== null ? ` in ${d.duration_ms} ms` : '';
  if (d.status === 'delivered') return `Delivered: the endpoint ${answer ?? 'answered'}${took}.`;
  if (d.status === 'failed') return `Failed${answer ? `: ${answer}` : ''}. It is not tried again (Redeliver sends it once more).`;
  if (d.attempt === 0) return 'Queued: being sent…';
  return (
    `Not delivered yet${answer ? ` (${answer}${took})` : ''}: tried again ` +
    `at ${d.next_attempt_at ? new Date(d.next_attempt_at).toLocaleTimeString() : 'the next attempt'}.`
  );
}

/**
 * The confirmation of a Test: what was sent, to where, and what became of it, from queued to delivered
 * or failed. `sent` is kept up to date by the page's `webhook_delivery` events (its socket is open from
 * the start, so that none is missed while one would connect).
 */
export function TestNotice({ sent, where, onClose }: { sent: Delivery; where: string; onClose: () => void }) {
  // What the log read says too: it may have been read after the delivery was done, before this was shown.
  const log = useDeliveries(sent.webhook_id);
  const delivery = later(
    sent,
    log.data?.items.find((d) => d.id === sent.id),
  );
  const tone = delivery.status === 'delivered' ? ' success' : delivery.status === 'failed' ? ' problem' : '';
  return (
    <div class={`notice${tone}`} role="status" data-testid="webhook-test-result" data-status={delivery.status}>
      <p>
        Test sent to endpoint {delivery.webhook_id} (<code>{where}</code>): a <code>{delivery.event_type}</code> event, delivery{' '}
        {delivery.id}. <strong>{outcomeOf(delivery)}</strong>
      </p>
      <button type="button" class="quiet" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
