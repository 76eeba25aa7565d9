import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { KEY_SCOPES, SCOPE_MEANINGS, type KeyScope } from '@garrison/core';
import { client, isAdmin } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { ConfirmButton } from '../components/confirm.js';
import { FormDialog, fieldText } from '../components/form-dialog.js';
import { TableHead } from '../components/table-head.js';
import { useQuery } from '../cache/use-query.js';
import { serverNames, when } from '../format.js';

type Key = ResponseOf<Endpoints['listApiKeys']>[number];

/** Who may make what: a viewer's key can read (and scrape metrics), not act. */
const VIEWER_SCOPES: readonly KeyScope[] = ['servers:read', 'files', 'metrics'];

/**
 * API keys for bots: one's own (an admin may show everyone's), made with scopes, servers, address ranges
 * and an expiry; the key shown once to copy; revoked at once.
 */
export function ApiKeys() {
  const admin = isAdmin();
  const [everyone, setEveryone] = useState(false);
  const { data, error, reload } = useQuery(`api-keys:${everyone}`, () => client.keys.list(everyone ? { all: true } : {}), 0);
  const servers = useQuery('servers:all', () => client.servers.list({ limit: 500 }));
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<string | null>(null);
  const action = useAction();
  const scopes = admin ? KEY_SCOPES : VIEWER_SCOPES;

  return (
    <section aria-labelledby="keys-title">
      <div class="section-head">
        <h2 id="keys-title">API keys</h2>
        <button type="button" onClick={() => setCreating(true)}>
          New key
        </button>
      </div>
      <p class="small">
        For bots and scripts: <code>Authorization: Bearer gar_…</code>. A key does what its scopes allow and its owner may do now, on its
        servers only.
      </p>
      {admin && (
        <label class="check">
          <input type="checkbox" checked={everyone} onChange={(e) => setEveryone(e.currentTarget.checked)} /> Everyone's keys
        </label>
      )}
      {made && (
        <div class="notice" role="status" data-testid="new-key">
          <p>The new key, shown this once:</p>
          <code class="secret">{made}</code>{' '}
          <button type="button" class="quiet" onClick={() => void navigator.clipboard?.writeText(made)}>
            Copy
          </button>{' '}
          <button type="button" class="quiet" onClick={() => setMade(null)}>
            Done
          </button>
        </div>
      )}
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {data && data.length === 0 && <p>No keys.</p>}
      {data && data.length > 0 && (
        <table class="table">
          <caption class="sr-only">API keys</caption>
          <TableHead columns={['Key', 'Owner', 'Scopes', 'Servers', 'Expires', 'Last used', 'Actions']} />
          <tbody>
            {data.map((k: Key) => (
              <tr key={k.id} data-key-id={k.id}>
                <td>
                  {k.name} <code class="small">{k.prefix}</code>
                </td>
                <td>{k.owner.username}</td>
                <td>{k.scopes.join(', ')}</td>
                <td>{k.server_ids ? serverNames(k.server_ids, servers.data) : 'all'}</td>
                <td>{k.expires_at ? when(k.expires_at) : <strong title="This key never expires">never</strong>}</td>
                <td>
                  {when(k.last_used_at)} {k.last_used_address && <span class="small">from {k.last_used_address}</span>}
                </td>
                <td class="actions">
                  <ConfirmButton
                    label="Revoke"
                    ariaLabel={`Revoke ${k.name}`}
                    title={`Revoke ${k.name}?`}
                    message="It stops working at once, everywhere."
                    onConfirm={() => action.run(() => client.keys.revoke(k.id)).then((done) => done && reload())}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {creating && (
        <FormDialog
          title="New API key"
          submitLabel="Create"
          wide
          onClose={() => setCreating(false)}
          onSubmit={async (form) => {
            const serverIds = form.getAll('server_ids').map(Number);
            const cidrs = fieldText(form, 'cidrs')
              .split(/[\s,]+/)
              .filter(Boolean);
            const expiry = fieldText(form, 'expires');
            const key = await client.keys.create({
              name: fieldText(form, 'name'),
              scopes: form.getAll('scopes').map(String) as KeyScope[],
              ...(serverIds.length ? { server_ids: serverIds } : {}),
              ...(cidrs.length ? { cidrs } : {}),
              ...(expiry === 'never' ? { expires_at: null } : expiry ? { expires_at: new Date(`${expiry}T23:59:59`).toISOString() } : {}),
            });
            setMade(key.key);
            reload();
          }}
        >
          <label>
            Name
            <input name="name" required maxLength={100} placeholder="Discord bot" autoComplete="off" />
          </label>
          <fieldset>
            <legend>Scopes</legend>
            {scopes.map((scope) => (
              <label key={scope} class="check" title={SCOPE_MEANINGS[scope]}>
                <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === 'servers:read'} /> <code>{scope}</code>{' '}
                <span class="small">{SCOPE_MEANINGS[scope]}</span>
              </label>
            ))}
          </fieldset>
          <label>
            Servers <span class="small">(none chosen: every server)</span>
            <select name="server_ids" multiple size={4}>
              {servers.data?.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Address ranges <span class="small">(optional: 203.0.113.0/24, 2001:db8::/32)</span>
            <input name="cidrs" autoComplete="off" />
          </label>
          <label>
            Expires <span class="small">(empty: in 90 days)</span>
            <input name="expires" type="date" />
          </label>
          {admin && (
            <label class="check">
              <input
                type="checkbox"
                onChange={(e) => {
                  const date = e.currentTarget.form?.elements.namedItem('expires') as HTMLInputElement | null;
                  if (date) {
                    date.type = e.currentTarget.checked ? 'text' : 'date';
                    date.value = e.currentTarget.checked ? 'never' : '';
                  }
                }}
              />{' '}
              Never expires <span class="small">(a key that never expires is shown as a warning)</span>
            </label>
          )}
        </FormDialog>
      )}
    </section>
  );
}
