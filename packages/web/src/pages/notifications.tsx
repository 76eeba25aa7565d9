import { useEffect, useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { WEBHOOK_EVENT_TYPES, WebhookEventCatalogue, type WebhookEventType } from '@garrison/core';
import { client } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { ConfirmButton } from '../components/confirm.js';
import { FormDialog, fieldText } from '../components/form-dialog.js';
import { TableHead } from '../components/table-head.js';
import { useQuery } from '../cache/use-query.js';
import { serverNames } from '../format.js';
import { DeliveryLog } from './webhook-log.js';
import { TestNotice, later, type Delivery } from './webhook-test.js';
import { useLiveEvents } from '../live.js';

type Hook = ResponseOf<Endpoints['listWebhooks']>[number];

/** The event picker: every type of the catalogue, with what it means; the test event is the Test button's. */
function EventPicker({ chosen }: { chosen: readonly string[] }) {
  return (
    <fieldset class="event-picker">
      <legend>Events</legend>
      {WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test').map((type) => (
        <label key={type} class="check" title={WebhookEventCatalogue[type].description}>
          <input type="checkbox" name="events" value={type} defaultChecked={chosen.includes(type)} /> <code>{type}</code>
        </label>
      ))}
    </fieldset>
  );
}

/** A secret shown once, with a button to copy it. */
function SecretOnce({ secret, onClose }: { secret: string; onClose: () => void }) {
  return (
    <div class="notice" role="status" data-testid="webhook-secret">
      <p>
        The endpoint's signing secret, shown this once (verify deliveries with it; see the docs' <em>integrations</em> page):
      </p>
      <code class="secret">{secret}</code>{' '}
      <button type="button" class="quiet" onClick={() => void navigator.clipboard?.writeText(secret)}>
        Copy
      </button>{' '}
      <button type="button" class="quiet" onClick={onClose}>
        Done
      </button>
    </div>
  );
}

/** How machines follow this instance: Prometheus metrics, if they are on, and where. */
function Integrations() {
  const { data, error } = useQuery('integrations:', () => client.system.integrations());
  const metrics = data?.metrics;
  const where = metrics ? (metrics.address ? `http://${metrics.address}${metrics.path}` : `${location.origin}${metrics.path}`) : '';
  return (
    <section aria-labelledby="integrations-title">
      <h2 id="integrations-title">Integrations</h2>
      <Problem error={error} />
      {metrics && metrics.enabled && (
        <p data-testid="metrics-state">
          Prometheus metrics are on at <code>{where}</code>, for requests with <code>Authorization: Bearer</code> and the token in{' '}
          <code>GARRISON_METRICS_TOKEN</code>.
        </p>
      )}
      {metrics && !metrics.enabled && (
        <p data-testid="metrics-state">
          Prometheus metrics are off. Set <code>GARRISON_METRICS_TOKEN</code> (16 characters or more) and restart to serve them at{' '}
          <code>{where}</code>; a Grafana dashboard is in <code>docs/grafana/</code>.
        </p>
      )}
    </section>
  );
}

/**
 * Notifications (admins): webhook endpoints that are told what happens (signed Standard Webhooks, or a
 * Discord channel), each with its events and servers, a test button and its delivery log; and how
 * Prometheus reaches the metrics.
 */
export function Notifications() {
  const { data, error, reload } = useQuery('webhooks:', () => client.webhooks.list(), 0);
  const servers = useQuery('servers:all', () => client.servers.list({ limit: 500 }));
  const [editing, setEditing] = useState<Hook | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [tested, setTested] = useState<{ delivery: Delivery; where: string } | null>(null);
  // Listening from the start: a test's delivery is often done before its answer comes back.
  useLiveEvents(null, {
    webhook_delivery: ({ data }) => setTested((t) => (t && t.delivery.id === data.id ? { ...t, delivery: later(t.delivery, data) } : t)),
  });
  const action = useAction();
  useEffect(() => void (document.title = 'Notifications · Garrison'), []);

  const save = async (form: FormData) => {
    const events = form.getAll('events').map(String) as WebhookEventType[];
    const serverIds = form.getAll('server_ids').map(Number);
    const common = { events, server_ids: serverIds.length ? serverIds : null, enabled: form.get('enabled') === 'on' };
    const url = fieldText(form, 'url');
    if (editing === 'new') {
      const made = await client.webhooks.create({ ...common, url, kind: fieldText(form, 'kind') as Hook['kind'] });
      setSecret(made.secret);
    } else if (editing) {
      await client.webhooks.update(editing.id, { ...common, ...(url ? { url } : {}) });
    }
    reload();
  };

  return (
    <section aria-labelledby="notifications-title">
      <div class="section-head">
        <h1 id="notifications-title">Notifications</h1>
        <button type="button" onClick={() => setEditing('new')}>
          New endpoint
        </button>
      </div>
      <p class="small">
        Garrison tells these endpoints what happens, signed (Standard Webhooks) or as Discord messages; a delivery that fails is tried again
        for about a day. An endpoint that answers <code>410 Gone</code> is turned off.
      </p>
      {secret && <SecretOnce secret={secret} onClose={() => setSecret(null)} />}
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {data && data.length === 0 && <p>No endpoints yet.</p>}
      {data && data.length > 0 && (
        <table class="table">
          <caption class="sr-only">Webhook endpoints</caption>
          <TableHead columns={['Endpoint', 'Kind', 'Events', 'Servers', 'State', 'Actions']} />
          <tbody>
            {data.map((w) => (
              <tr key={w.id} data-webhook-id={w.id}>
                <td>
                  <code>{w.url}</code>
                </td>
                <td>{w.kind}</td>
                <td title={w.events.join(', ')}>{w.events.length === 1 ? w.events[0] : `${w.events.length} events`}</td>
                <td>{w.server_ids ? serverNames(w.server_ids, servers.data) : 'all'}</td>
                <td>
                  <span class={`status status-${w.enabled ? 'running' : 'stopped'}`} data-testid="webhook-state">
                    {w.enabled ? 'on' : 'off'}
                  </span>{' '}
                  {w.disabled_reason && <span class="small">{w.disabled_reason}</span>}
                </td>
                <td class="actions">
                  <button
                    type="button"
                    class="quiet"
                    aria-label={`Test endpoint ${w.id}`}
                    disabled={!w.enabled}
                    onClick={() =>
                      void action
                        .run(async () => setTested({ delivery: await client.webhooks.test(w.id), where: w.url }))
                        .then((sent) => sent && setOpen(w.id))
                    }
                  >
                    Test
                  </button>
                  <button
                    type="button"
                    class="quiet"
                    aria-expanded={open === w.id}
                    aria-label={`Deliveries of endpoint ${w.id}`}
                    onClick={() => setOpen(open === w.id ? null : w.id)}
                  >
                    Deliveries
                  </button>
                  <button type="button" class="quiet" aria-label={`Edit endpoint ${w.id}`} onClick={() => setEditing(w)}>
                    Edit
                  </button>
                  {w.kind === 'generic' && (
                    <ConfirmButton
                      label="Rotate secret"
                      ariaLabel={`Rotate the secret of endpoint ${w.id}`}
                      title="Rotate the signing secret?"
                      message={
                        'A new secret is shown once; deliveries are signed with both for 24 hours, so the receiver can switch ' +
                        'without missing any.'
                      }
                      onConfirm={() =>
                        action.run(async () => {
                          setSecret((await client.webhooks.rotateSecret(w.id)).secret);
                          reload();
                        })
                      }
                    />
                  )}
                  <ConfirmButton
                    label="Delete"
                    ariaLabel={`Delete endpoint ${w.id}`}
                    title="Delete this endpoint?"
                    message="It is told nothing more, and its delivery log goes with it."
                    onConfirm={() => action.run(() => client.webhooks.delete(w.id)).then((done) => done && reload())}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {tested && <TestNotice key={tested.delivery.id} sent={tested.delivery} where={tested.where} onClose={() => setTested(null)} />}
      {open !== null && <DeliveryLog key={open} webhookId={open} />}
      <Integrations />
      {editing && (
        <FormDialog
          title={editing === 'new' ? 'New endpoint' : `Endpoint ${editing.id}`}
          submitLabel={editing === 'new' ? 'Create' : 'Save'}
          wide
          onClose={() => setEditing(null)}
          onSubmit={save}
        >
          <label>
            URL {editing !== 'new' && <span class="small">(leave empty to keep {editing.url})</span>}
            <input
              name="url"
              type="url"
              required={editing === 'new'}
              maxLength={2000}
              placeholder="https://discord.com/api/webhooks/…"
              autoComplete="off"
            />
          </label>
          {editing === 'new' && (
            <label>
              Kind
              <select name="kind" defaultValue="discord">
                <option value="discord">Discord channel webhook</option>
                <option value="generic">Generic (Standard Webhooks, signed JSON)</option>
              </select>
            </label>
          )}
          <EventPicker chosen={editing === 'new' ? ['server.crashed', 'server.crash_loop'] : editing.events} />
          <label>
            Servers <span class="small">(none chosen: every server)</span>
            <select name="server_ids" multiple size={4}>
              {servers.data?.map((s) => (
                <option key={s.id} value={s.id} selected={editing !== 'new' && Boolean(editing.server_ids?.includes(s.id))}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label class="check">
            <input name="enabled" type="checkbox" defaultChecked={editing === 'new' ? true : editing.enabled} /> On
          </label>
        </FormDialog>
      )}
    </section>
  );
}
