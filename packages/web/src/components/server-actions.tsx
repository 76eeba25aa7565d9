import { useState } from 'preact/hooks';
import { ACTIVE_STATUSES, type ServerStatus } from '@garrison/core';
import { client } from '../session.js';
import type { Run } from './problem.js';
import { Confirm } from './confirm.js';

type Action = 'start' | 'stop' | 'restart' | 'kill';

export const RUNNING = new Set(ACTIVE_STATUSES);
const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1);
/** What each action loses, asked before it is done; start loses nothing and is done at once. */
const LOSES: Partial<Record<Action, string>> = {
  kill: 'Kill ends the process at once: players are dropped and the mission state is lost.',
  stop: 'Stop shuts the game down: players are disconnected.',
  restart: 'Restart shuts the game down and starts it again: players are disconnected.',
};

/** Start, or stop / restart / kill after a confirmation; for admins only (the caller checks). */
export function ServerActions(props: { server: { id: number; name: string; status: ServerStatus }; run: Run; children?: preact.ComponentChildren }) {
  const { server, run } = props;
  const [asking, setAsking] = useState<Action | null>(null);
  const act = (action: Action) => {
    setAsking(null);
    void run(() => client.servers[action](server.id));
  };
  const running = RUNNING.has(server.status);
  return (
    <div class="actions" role="group" aria-label={`Actions for ${server.name}`}>
      {!running && (
        <button type="button" onClick={() => act('start')}>
          Start
        </button>
      )}
      {running && (
        <>
          <button type="button" onClick={() => setAsking('stop')}>
            Stop
          </button>
          <button type="button" onClick={() => setAsking('restart')}>
            Restart
          </button>
          <button type="button" class="danger" onClick={() => setAsking('kill')}>
            Kill
          </button>
        </>
      )}
      {props.children}
      {asking && (
        <Confirm
          title={`${capitalised(asking)} ${server.name}?`}
          message={LOSES[asking]!}
          confirmLabel={capitalised(asking)}
          onConfirm={() => act(asking)}
          onCancel={() => setAsking(null)}
        />
      )}
    </div>
  );
}
