import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { signal, type Signal } from '@preact/signals';
import { client, endIfUnauthorized, forgetAtSignOut } from '../../session.js';
import { describe } from '../../components/problem.js';
import { useQuery } from '../../cache/use-query.js';
import type { ServerRecord } from './server-page.js';

interface Exchange {
  key: number;
  command: string;
  answer: string | null;
  failed: boolean;
}
const KEPT = 50;

/** Each server's commands and answers, kept while the page lives, so that a tab switch loses none. */
const histories = new Map<number, Signal<Exchange[]>>();
const historyOf = (serverId: number) => histories.get(serverId) ?? histories.set(serverId, signal([])).get(serverId)!;
forgetAtSignOut(() => histories.clear());

/** A game's commands change only with the adapter: kept for the page's life. */
const COMMANDS_MAX_AGE_MS = 24 * 60 * 60_000;

/** Sends one remote-admin command and shows its answer; the game's known commands are offered as the user types. */
export function RconLine({ server }: { server: ServerRecord }) {
  // Without them (not read yet, or the read failed) the line works, without suggestions.
  const commands =
    useQuery(`games:commands:${server.game_type}`, () => client.games.commands(server.game_type), COMMANDS_MAX_AGE_MS).data ?? [];
  const history = historyOf(server.id);
  const exchanges = history.value;
  const setExchanges = (update: (all: Exchange[]) => Exchange[]) => void (history.value = update(history.value));
  const [text, setText] = useState('');
  // The newest answer in view, as a terminal does.
  const answers = useRef<HTMLOListElement>(null);
  useLayoutEffect(() => {
    const box = answers.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [exchanges]);

  const send = async (event: Event) => {
    event.preventDefault();
    const command = text.trim();
    if (!command) return;
    const key = Date.now() + Math.random();
    setExchanges((all) => [...all.slice(-(KEPT - 1)), { key, command, answer: null, failed: false }]);
    setText('');
    const settle = (answer: string, failed: boolean) =>
      setExchanges((all) => all.map((x) => (x.key === key ? { ...x, answer, failed } : x)));
    try {
      const { response } = await client.rcon.command(server.id, command);
      settle(response || '(no answer)', false);
    } catch (err) {
      endIfUnauthorized(err);
      settle(describe(err), true);
    }
  };

  return (
    <div class="rcon">
      {exchanges.length > 0 && (
        <ol class="rcon-answers" aria-label="Command answers" aria-live="polite" ref={answers}>
          {exchanges.map((x) => (
            <li key={x.key}>
              <div class="rcon-command">&gt; {x.command}</div>
              <pre class={x.failed ? 'rcon-failed' : ''}>{x.answer ?? '…'}</pre>
            </li>
          ))}
        </ol>
      )}
      <form class="rcon-form" onSubmit={send}>
        <label class="grow">
          RCon command
          <input
            list="rcon-commands"
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            autoComplete="off"
            spellcheck={false}
            placeholder={commands[0] ? `e.g. ${commands.find((c) => !c.includes('<')) ?? commands[0]}` : 'A command for the game'}
            maxLength={4096}
          />
        </label>
        <datalist id="rcon-commands">
          {commands.map((c) => (
            <option key={c} value={c.replace(/\s*[<[].*$/, c.includes('<') || c.includes('[') ? ' ' : '')} label={c} />
          ))}
        </datalist>
        <button type="submit" disabled={!text.trim()}>
          Send
        </button>
      </form>
    </div>
  );
}
