import { useState } from 'preact/hooks';
import { client } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import type { ServerRecord } from './server-page.js';

/** A message every player sees, in the game's own command for it (the adapter names it; the service audits it). */
export function SayBox({ server }: { server: ServerRecord }) {
  const action = useAction();
  const [text, setText] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const running = server.status === 'running';

  const send = (event: Event) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    setSent(null);
    void action.run(async () => {
      await client.rcon.say(server.id, message);
      setSent(`Sent to all players: “${message}”`);
      setText('');
    });
  };

  return (
    <form class="rcon-form say-box" onSubmit={send} aria-label="Message to all players">
      <label class="grow">
        Message to all players
        <input
          value={text}
          onInput={(e) => (setText(e.currentTarget.value), setSent(null))}
          maxLength={1000}
          placeholder={running ? 'Restart in 10 minutes, finish your objective' : 'The server is not running'}
        />
      </label>
      <button type="submit" disabled={!text.trim() || !running}>
        Say to all
      </button>
      {sent && (
        <span role="status" class="small">
          {sent}
        </span>
      )}
      <Problem error={action.error} onDismiss={action.dismiss} />
    </form>
  );
}
