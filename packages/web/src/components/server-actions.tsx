import { ACTIVE_STATUSES, type ServerStatus } from '@garrison/core';
import { client } from '../session.js';
import type { Run } from './problem.js';
import { ConfirmButton } from './confirm.js';
import { humanise } from '../format.js';

type Action = 'start' | 'stop' | 'restart' | 'kill';

export const RUNNING = new Set(ACTIVE_STATUSES);
/** What each action loses, asked before it is done; start loses nothing and is done at once. */
const LOSES: Record<Exclude<Action, 'start'>, string> = {
  kill: 'Kill ends the process at once: players are dropped and the mission state is lost.',
  stop: 'Stop shuts the game down: players are disconnected.',
  restart: 'Restart shuts the game down and starts it again: players are disconnected.',
};

/** Start, or stop / restart / kill after a confirmation; for admins only (the caller checks). */
export function ServerActions(props: {
  server: { id: number; name: string; status: ServerStatus };
  run: Run;
  children?: preact.ComponentChildren;
}) {
  const { server, run } = props;
  const act = (action: Action) => void run(() => client.servers[action](server.id));
  // Its node is offline: nothing can be done to the game until the node is back.
  if (server.status === 'unknown') return <div class="actions">{props.children}</div>;
  return (
    <div class="actions" role="group" aria-label={`Actions for ${server.name}`}>
      {RUNNING.has(server.status) ? (
        (['stop', 'restart', 'kill'] as const).map((action) => (
          <ConfirmButton
            key={action}
            label={humanise(action)}
            class={action === 'kill' ? 'danger' : ''}
            title={`${humanise(action)} ${server.name}?`}
            message={LOSES[action]}
            onConfirm={() => act(action)}
          />
        ))
      ) : (
        <button type="button" onClick={() => act('start')}>
          Start
        </button>
      )}
      {props.children}
    </div>
  );
}
