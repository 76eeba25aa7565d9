import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { ServerDetail } from '@garrison/core';
import { client } from '../session.js';
import { useQuery } from '../cache/use-query.js';
import { Problem, useAction } from '../components/problem.js';
import { useModal } from '../components/modal.js';
import { ServerFields, readServerFields } from '../components/server-fields.js';
import { humanise } from '../format.js';
import { useDefaultGameType, useGame, useGames } from '../games.js';

type Created = ResponseOf<Endpoints['createServer']>;

/** The game's credentials: what a creation's (or an import's) answer holds beyond the server record. */
const credentialsOf = (made: object) =>
  Object.entries(made).filter((entry): entry is [string, string] => !(entry[0] in ServerDetail.properties) && typeof entry[1] === 'string');

/** The credentials of a server just made, shown this once, and the dialog's end. */
export function Credentials({ server, onDone }: { server: object; onDone: () => void }) {
  return (
    <>
      <p class="notice">
        Copy these passwords now: config reads show them masked. Admins can see them again in the server's generated files, under Config →
        Preview.
      </p>
      {credentialsOf(server).map(([field, value]) => (
        <Secret key={field} label={humanise(field)} value={value} />
      ))}
      <div class="dialog-actions">
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </>
  );
}

/** The new-server form, then the generated credentials, which the service returns in plain only now (and in the admins' config preview). */
export function CreateServer({ onClose, onCreated }: { onClose: () => void; onCreated: (server: Created) => void }) {
  const dialog = useModal();
  const action = useAction();
  const [created, setCreated] = useState<Created | null>(null);
  const [busy, setBusy] = useState(false);
  const games = useGames().data;
  const [chosen, setChosen] = useState<string | null>(null);
  // The service's default game first, as a server created without one would get.
  const defaultGameType = useDefaultGameType();
  const gameType = chosen ?? defaultGameType;
  const game = useGame(gameType);
  // Where it runs: its files and processes live on that node. Only a cluster has a choice.
  const nodes = useQuery('nodes:', () => client.nodes.list()).data?.filter((n) => n.online && !n.draining);
  const [nodeId, setNodeId] = useState('');

  const submit = async (event: Event) => {
    event.preventDefault();
    const fields = readServerFields(event.currentTarget as HTMLFormElement);
    setBusy(true);
    await action.run(async () => {
      const server = await client.servers.create({
        ...fields,
        ...(gameType ? { game_type: gameType } : {}),
        ...(nodeId ? { node_id: nodeId } : {}),
      });
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
          <label>
            Game
            <select name="game_type" value={gameType ?? ''} onChange={(e) => setChosen(e.currentTarget.value)} required>
              {(games ?? []).map((g) => (
                <option key={g.game_type} value={g.game_type}>
                  {g.display_name}
                </option>
              ))}
            </select>
          </label>
          {nodes && nodes.length > 1 && (
            <label>
              Node
              <select name="node_id" value={nodeId} onChange={(e) => setNodeId(e.currentTarget.value)}>
                <option value="">this instance's node</option>
                {nodes.map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.id} ({n.server_count} servers)
                  </option>
                ))}
              </select>
            </label>
          )}
          {/* Keyed by game: another game's form starts empty rather than with the other's path. */}
          <ServerFields key={gameType ?? ''} game={game} />
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
          {created.warnings.includes('exe_missing') && (
            <p class="notice" role="status">
              There is no file at {created.exe_path} yet: the server cannot start until there is. Its card says so until then.
            </p>
          )}
          {created.warnings.includes('shares_installation') && (
            <p class="notice" role="status" data-warning="shares_installation">
              {(created.installation_shared_with ?? []).map((o) => `${o.name} (#${o.id})`).join(', ')}{' '}
              {(created.installation_shared_with ?? []).length > 1 ? 'run' : 'runs'} from the same installation. This server gets its own
              profile, logs and config files there, but the installation's missions and mod folders stay shared, as the game reads them: a
              mission or mod added for one is there for the other.
            </p>
          )}
          <Credentials server={created} onDone={() => dialog.current?.close()} />
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
