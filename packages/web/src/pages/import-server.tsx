import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { useModal } from '../components/modal.js';
import { humanise, optionsSuffix } from '../format.js';
import { Credentials } from './create-server.js';
import { GAMES_MAX_AGE_MS, useDefaultGameType, useGame, type GameType } from '../games.js';
import { useQuery } from '../cache/use-query.js';

type Plan = ResponseOf<Endpoints['importServer']>;
type Request = Parameters<typeof client.servers.import>[0];
type Made = Extract<Plan['server'], { id: number }>;

/** The paths and the command line as typed: empty fields are left out (the service looks in the usual places). */
function readRequest(form: HTMLFormElement): Request {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim();
  const optional = (name: string, field: keyof Request) => (text(name) ? { [field]: text(name) } : {});
  // A port given here wins over the files' (the browser has checked it is a whole number in range).
  const port = (name: 'game_port' | 'rcon_port') => (text(name) ? { [name]: Number(text(name)) } : {});
  return {
    ...port('game_port'),
    ...port('rcon_port'),
    exe_path: text('exe_path'),
    ...optional('name', 'name'),
    ...optional('config_path', 'config_path'),
    ...optional('basic_path', 'basic_path'),
    ...optional('profile_path', 'profile_path'),
    ...(String(data.get('command_line') ?? '').trim() ? { command_line: String(data.get('command_line')) } : {}),
  };
}

/**
 * Adopting a server that ran without Garrison: its paths (and its start command, pasted), then the plan
 * the service answers to a dry run — what maps where, what is kept as extra lines, what is refused and
 * why — and only then the import, whose answer holds the credentials read, shown this once.
 */
/** Every game with its details, for a form that tells the game from the executable typed. */
const useGameDetails = () =>
  useQuery(
    'games:details',
    async () => Promise.all((await client.games.list()).map((g) => client.games.get(g.game_type))),
    GAMES_MAX_AGE_MS,
  ).data;

/** The game whose server program `exePath` names, if one does. */
const gameOfExecutable = (games: readonly GameType[] | undefined, exePath: string): GameType | undefined => {
  const name = exePath.split(/[\\/]/).pop() ?? '';
  return games?.find((g) => g.allowed_executables.includes(name));
};

export function ImportServer({ onClose, onImported }: { onClose: () => void; onImported: (server: Made) => void }) {
  const dialog = useModal();
  const action = useAction();
  const [request, setRequest] = useState<Request | null>(null);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [busy, setBusy] = useState(false);
  // The game of an import is the one whose executable it names: the form's words follow the executable
  // typed (the default game's until it names one).
  const [exePath, setExePath] = useState(request?.exe_path ?? '');
  const fallback = useGame(useDefaultGameType());
  const game = gameOfExecutable(useGameDetails(), exePath) ?? fallback;
  const presentation = game?.presentation ?? {};

  const check = async (event: Event) => {
    event.preventDefault();
    const wanted = readRequest(event.currentTarget as HTMLFormElement);
    setBusy(true);
    await action.run(async () => {
      setPlan(await client.servers.import({ ...wanted, dry_run: true }));
      setRequest(wanted);
    });
    setBusy(false);
  };
  const confirm = async () => {
    if (!request) return;
    setBusy(true);
    await action.run(async () => {
      const done = await client.servers.import(request);
      setPlan(done);
      if ('id' in done.server) onImported(done.server);
    });
    setBusy(false);
  };

  return (
    <dialog ref={dialog} aria-labelledby="import-title" onClose={onClose} class="wide">
      <h2 id="import-title">{plan && !plan.dry_run ? `${plan.server.name} is imported` : 'Import an existing server'}</h2>
      {!plan && (
        <form onSubmit={check}>
          <p class="small">
            Garrison reads the server's files{presentation.import_files ? ` — ${presentation.import_files} — ` : ' '}from the folder of its
            executable, and shows what it will do before it does anything.
          </p>
          <label>
            Executable
            <input
              name="exe_path"
              required
              placeholder={presentation.example_exe_path}
              autocomplete="off"
              defaultValue={request?.exe_path}
              onInput={(event) => setExePath(event.currentTarget.value)}
            />
          </label>
          <label>
            Start command line <span class="small">(optional: ports, paths and mods are read from it)</span>
            <textarea name="command_line" rows={3} placeholder={presentation.example_command_line} defaultValue={request?.command_line} />
          </label>
          <div class="row">
            <label>
              Game port <span class="small">(optional: instead of the command line's)</span>
              <input
                name="game_port"
                type="number"
                min={1024}
                max={65535}
                step={1}
                placeholder="from the command line"
                defaultValue={request?.game_port?.toString()}
              />
            </label>
            {game?.remote_admin_port !== 'game' && (
              <label>
                RCon port <span class="small">(optional: instead of the one in the game's files)</span>
                <input
                  name="rcon_port"
                  type="number"
                  min={1024}
                  max={65535}
                  step={1}
                  placeholder="from the game's files"
                  defaultValue={request?.rcon_port?.toString()}
                />
              </label>
            )}
          </div>
          <details>
            <summary>Other paths and the name</summary>
            <label>
              Name <input name="name" defaultValue={request?.name} placeholder="the hostname of server.cfg" />
            </label>
            <label>
              server.cfg <input name="config_path" defaultValue={request?.config_path} placeholder="beside the executable, or -config=" />
            </label>
            <label>
              basic.cfg <input name="basic_path" defaultValue={request?.basic_path} placeholder="beside the executable, or -cfg=" />
            </label>
            <label>
              Profile <input name="profile_path" defaultValue={request?.profile_path} placeholder="from -profiles= and -name=" />
            </label>
          </details>
          <Problem error={action.error} />
          <div class="dialog-actions">
            <button type="button" class="quiet" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" disabled={busy}>
              {busy ? 'Reading…' : 'Check'}
            </button>
          </div>
        </form>
      )}
      {plan && <PlanReport plan={plan} />}
      {plan && plan.dry_run && (
        <>
          <Problem error={action.error} />
          <div class="dialog-actions">
            {/* Back keeps what was typed: a port in use is changed there, and checked again. */}
            <button type="button" class="quiet" onClick={() => (setPlan(null), action.dismiss())}>
              Back
            </button>
            <button type="button" onClick={confirm} disabled={busy}>
              {busy ? 'Importing…' : 'Import'}
            </button>
          </div>
        </>
      )}
      {plan && !plan.dry_run && (
        <div>
          <Credentials server={plan.server} onDone={() => dialog.current?.close()} />
        </div>
      )}
    </dialog>
  );
}

const shown = (value: unknown) =>
  Array.isArray(value) ? value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ') : String(value);

function PlanReport({ plan }: { plan: Plan }) {
  const { server } = plan;
  return (
    <div class="import-plan" aria-label="Import plan">
      {plan.dry_run && <p class="notice">Nothing is written yet. This is what the import does:</p>}
      <dl class="facts">
        <dt>Server</dt>
        <dd>
          {server.name} ({server.game_type}), game port {server.game_port}, RCon port {server.rcon_port}
        </dd>
        <dt>Rotation</dt>
        <dd>{plan.rotation.map((r) => `${r.name}${optionsSuffix(r)}`).join(', ') || 'none'}</dd>
        <dt>Mods</dt>
        <dd>
          {plan.mods.map((m) => `${m.name}${m.is_server_mod ? ' (server)' : ''}${m.installed ? '' : ' — not installed'}`).join(', ') ||
            'none'}
        </dd>
        <dt>Bans</dt>
        <dd>{plan.bans.count ? `${plan.bans.count} from ${plan.bans.file}` : 'none'}</dd>
        <dt>Missions</dt>
        <dd>{plan.missions.length} in the folder</dd>
      </dl>
      <h3>Files</h3>
      <ul class="small">
        {plan.files.map((f) => (
          <li key={f.role}>
            {f.found ? '✓' : '—'} {f.role}: <span class="mono">{f.path}</span>
          </li>
        ))}
      </ul>
      <h3>Settings read</h3>
      {Object.entries(plan.sections).map(([section, values]) => (
        <details key={section}>
          <summary>
            {humanise(section)}: {Object.keys(values).length}
          </summary>
          <table class="table small">
            <tbody>
              {Object.entries(values).map(([field, value]) => (
                <tr key={field}>
                  <th scope="row">{humanise(field)}</th>
                  <td class="mono">{shown(value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ))}
      {plan.unknown.length > 0 && (
        <>
          <h3>Kept as extra lines ({plan.unknown.length})</h3>
          <p class="small">Garrison has no field for these; it writes them back as they were.</p>
          <ul class="small mono">
            {plan.unknown.map((u) => (
              <li key={`${u.file}:${u.line}:${u.key}`}>
                {u.key} — {u.file}:{u.line}
              </li>
            ))}
          </ul>
        </>
      )}
      {plan.refused.length > 0 && (
        <>
          <h3>Not taken ({plan.refused.length})</h3>
          <ul class="small refused">
            {plan.refused.map((r) => (
              <li key={`${r.file}:${r.line}:${r.key}`}>
                <span class="mono">{r.key}</span> ({r.file}
                {r.line ? `:${r.line}` : ''}): {r.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {plan.warnings.length > 0 && (
        <>
          <h3>Warnings</h3>
          <ul class="small">
            {plan.warnings.map((w) => (
              <li key={w} class={w.startsWith('PORT_IN_USE') ? 'refused' : undefined}>
                {w}
              </li>
            ))}
          </ul>
          {plan.dry_run && plan.warnings.some((w) => w.startsWith('PORT_IN_USE')) && (
            <p class="notice">A port is in use: go Back and give other ports, or stop what holds it, then check again.</p>
          )}
        </>
      )}
    </div>
  );
}
