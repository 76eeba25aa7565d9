import { Port, MaxRestarts, HeadlessClients, type CreateServerRequest } from '@garrison/core';
import type { GameType } from '../games.js';

type Fields = Omit<CreateServerRequest, 'game_type'>;

/**
 * The fields of a server record, for the new-server form and the edit form alike, as the server's game
 * has them: its executables as the hint (its example path as the placeholder), an RCon port only for a game
 * whose remote admin has a port of its own.
 */
export function ServerFields({ initial, game }: { initial?: Partial<Fields>; game: GameType | undefined }) {
  const executables = game?.allowed_executables ?? [];
  const example = game?.presentation.example_exe_path ?? (executables[0] ? `/path/to/${executables[0]}` : undefined);
  return (
    <>
      <label>
        Name
        <input name="name" required maxLength={100} defaultValue={initial?.name} />
      </label>
      <label>
        Executable path
        <input name="exe_path" required placeholder={example} defaultValue={initial?.exe_path} aria-describedby="exe-hint" />
        <small id="exe-hint" class="small">
          {executables.length
            ? `The full path of the game's server program: ${executables.join(' or ')}.`
            : "The full path of the game's server program."}
        </small>
      </label>
      <div class="row">
        <label>
          Game port
          <input
            name="game_port"
            type="number"
            required
            min={Port.minimum}
            max={Port.maximum}
            defaultValue={initial?.game_port?.toString()}
          />
        </label>
        {game?.remote_admin_port === 'own' && (
          <label>
            RCon port (optional)
            <input
              name="rcon_port"
              type="number"
              min={Port.minimum}
              max={Port.maximum}
              placeholder="game port + 3"
              defaultValue={initial?.rcon_port?.toString()}
            />
          </label>
        )}
      </div>
      <label>
        Description (optional)
        <input name="description" maxLength={1000} defaultValue={initial?.description ?? ''} />
      </label>
      <div class="row">
        <label class="check">
          <input name="auto_restart" type="checkbox" defaultChecked={initial?.auto_restart} /> Restart automatically after a crash
        </label>
        <label>
          Restarts at most
          <input
            name="max_restarts"
            type="number"
            min={MaxRestarts.minimum}
            max={MaxRestarts.maximum}
            defaultValue={(initial?.max_restarts ?? 3).toString()}
          />
        </label>
      </div>
      <label>
        Headless clients
        <input
          name="headless_clients"
          type="number"
          min={HeadlessClients.minimum}
          max={HeadlessClients.maximum}
          defaultValue={String(initial?.headless_clients ?? HeadlessClients.default)}
          aria-describedby="headless-hint"
        />
        <small id="headless-hint" class="small">
          Extra game processes that run the mission's AI, started once the server runs and restarted when they crash.
        </small>
      </label>
    </>
  );
}

/** The form's values as the service takes them; an emptied optional field is left out, a cleared description is null. */
export function readServerFields(formElement: HTMLFormElement): Fields {
  const form = new FormData(formElement);
  const text = (name: string) => String(form.get(name) ?? '').trim();
  return {
    name: text('name'),
    exe_path: text('exe_path'),
    game_port: Number(text('game_port')),
    ...(text('rcon_port') ? { rcon_port: Number(text('rcon_port')) } : {}),
    description: text('description') || null,
    auto_restart: form.get('auto_restart') === 'on',
    max_restarts: Number(text('max_restarts') || 3),
    headless_clients: Number(text('headless_clients') || 0),
  };
}
