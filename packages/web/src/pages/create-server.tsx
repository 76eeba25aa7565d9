import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { ServerDetail } from '@garrison/core';
import { client } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { useModal } from '../components/modal.js';
import { ServerFields, readServerFields } from '../components/server-fields.js';
import { humanise } from '../format.js';

type Created = ResponseOf<Endpoints['createServer']>;

/** The game's generated credentials: what the creation answer holds beyond the server record. */
const credentialsOf = (created: Created) =>
  Object.entries(created).filter((entry): entry is [string, string] => !(entry[0] in ServerDetail.properties) && typeof entry[1] === 'string');

/** The new-server form, then the generated credentials: shown this once, as the service returns them only now. */
export function CreateServer({ onClose, onCreated }: { onClose: () => void; onCreated: (server: Created) => void }) {
  const dialog = useModal();
  const action = useAction();
  const [created, setCreated] = useState<Created | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const fields = readServerFields(event.currentTarget as HTMLFormElement);
    setBusy(true);
    await action.run(async () => {
      const server = await client.servers.create(fields);
      setCreated(server);
      onCreated(server);
    });
    setBusy(false);
  };

  return (
    <dialog ref={dialog} aria-labelledby="create-title" onClose={onClose} class="wide">
      {!created ? (
        <form onSubmit={submit}>
          <h2 id="create-title">New server</h2>
          <ServerFields />
          <Problem error={action.error} />
          <div class="dialog-actions">
            <button type="button" class="quiet" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" disabled={busy}>
              {busy ? 'Creating…' : 'Create'}
            </button>
          </div>
        </form>
      ) : (
        <div>
          <h2 id="create-title">{created.name} is ready</h2>
          <p class="notice">These passwords are shown this once. Copy them now: the service never shows them again.</p>
          {credentialsOf(created).map(([field, value]) => (
            <Secret key={field} label={humanise(field)} value={value} />
          ))}
          <div class="dialog-actions">
            <button type="button" onClick={() => dialog.current?.close()}>
              Done
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}

function Secret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(value);
    setCopied(true);
  };
  return (
    <div class="secret">
      <label>
        {label}
        <input readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <button type="button" onClick={copy} aria-label={`Copy the ${label.toLowerCase()}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
