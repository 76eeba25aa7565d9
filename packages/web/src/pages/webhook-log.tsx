import { client } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { TableHead } from '../components/table-head.js';
import { when } from '../format.js';
import { useLiveEvents } from '../live.js';
import { DELIVERY_PAGE as PAGE, useDeliveries, type Delivery } from './webhook-test.js';

type Page = { total: number; items: Delivery[] };

/** The page with a delivery as the service now has it: replaced where listed, else the newest first. */
const withDelivery = (page: Page, d: Delivery): Page =>
  page.items.some((x) => x.id === d.id)
    ? { ...page, items: page.items.map((x) => (x.id === d.id ? d : x)) }
    : { total: page.total + 1, items: [d, ...page.items].slice(0, PAGE) };

/**
 * One endpoint's delivery log, newest first: what was sent, how it went (status, the answer's first
 * characters, how long it took, the attempts), when it is tried next, live; any delivery can be sent again.
 */
export function DeliveryLog({ webhookId }: { webhookId: number }) {
  const { data, error, reload, apply } = useDeliveries(webhookId);
  // Live: each delivery queued or attempted comes as an event (admins only), applied without a read.
  useLiveEvents(null, {
    webhook_delivery: ({ data: d }) => {
      if (d.webhook_id === webhookId) apply((page) => withDelivery(page, d));
    },
  });
  const action = useAction();
  return (
    <section aria-label={`Deliveries of endpoint ${webhookId}`} class="delivery-log">
      <div class="section-head">
        <h3>Deliveries {data && <span class="small">({data.total})</span>}</h3>
        <button type="button" class="quiet" onClick={() => reload()}>
          Refresh
        </button>
      </div>
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {data && data.items.length === 0 && <p class="small">Nothing sent yet: press Test, or wait for an event it follows.</p>}
      {data && data.items.length > 0 && (
        <table class="table">
          <caption class="sr-only">Deliveries</caption>
          <TableHead columns={['Created', 'Event', 'Status', 'Attempts', 'Answer', 'Took', 'Next attempt', 'Actions']} />
          <tbody>
            {data.items.map((d) => (
              <tr key={d.id} data-delivery-id={d.id}>
                <td>{when(d.created_at)}</td>
                <td>
                  <code>{d.event_type}</code>
                </td>
                <td>
                  <span
                    class={`status status-${d.status === 'delivered' ? 'running' : d.status === 'failed' ? 'error' : 'starting'}`}
                    data-testid="delivery-status"
                  >
                    {d.status}
                  </span>
                </td>
                <td>{d.attempt}</td>
                <td class="snippet" title={d.response_snippet ?? d.error ?? ''}>
                  {d.response_status ?? ''} {d.error ?? d.response_snippet?.slice(0, 80) ?? ''}
                </td>
                <td>{d.duration_ms === null ? '–' : `${d.duration_ms} ms`}</td>
                <td>{d.status === 'pending' ? when(d.next_attempt_at) : '–'}</td>
                <td class="actions">
                  <button
                    type="button"
                    class="quiet"
                    aria-label={`Redeliver delivery ${d.id}`}
                    onClick={() => void action.run(() => client.webhooks.redeliver(webhookId, d.id)).then(() => reload())}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
