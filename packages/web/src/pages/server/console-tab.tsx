import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { LogLevelSchema } from '@garrison/core';
import { client, endIfUnauthorized, isAdmin } from '../../session.js';
import { Problem } from '../../components/problem.js';
import { useLiveEvents } from '../../live.js';
import { RconLine } from './rcon-line.js';
import { SayBox } from './say-box.js';
import { useDebounced } from '../../components/debounced.js';
import { can, useGame } from '../../games.js';
import type { TabProps } from './server-page.js';
import { useQuery } from '../../cache/use-query.js';

type StoredLine = ResponseOf<Endpoints['listLogs']>['logs'][number];
/** A line on screen: stored ones carry their id, live ones have none yet. */
type Line = Omit<StoredLine, 'id'> & { id?: number; key: number };

const LEVELS = LogLevelSchema.anyOf.map((l) => l.const);
const PAGE = 200;
/** The most lines kept on screen; older ones go, and come back from the store when scrolled to. */
const MAX_LINES = 3_000;
let nextKey = 0;
const keyed = (line: Omit<Line, 'key'>): Line => ({ ...line, key: nextKey++ });

/** The game's log as it is written, with the stored history above it, and the RCon line below. */
export function ConsoleTab({ server }: TabProps) {
  const game = useGame(server.game_type);
  const [level, setLevel] = useState('');
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const [lines, setLines] = useState<Line[]>([]);
  const [paused, setPaused] = useState(false);
  const held = useRef<Line[]>([]);
  const [heldCount, setHeldCount] = useState(0);
  const [older, setOlder] = useState<{ busy: boolean; done: boolean; error: unknown }>({ busy: false, done: false, error: null });
  const view = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);

  const matches = (line: { level: string; message: string }) =>
    (!level || line.level === level) && (!query || line.message.toLowerCase().includes(query.toLowerCase()));

  // Each load of the newest page starts a generation: an older page asked for before it (under another filter) is dropped.
  const generation = useRef(0);
  const filter = { ...(level ? { level: level as StoredLine['level'] } : {}), ...(query ? { search: query } : {}) };
  // Only the answer for the current filter arrives here: the cache keeps each filter's apart.
  const key = `logs:${server.id}:${level}:${query}`;
  const { data: newest, error } = useQuery(key, () => client.logs.list(server.id, { limit: PAGE, ...filter }));
  const shownKey = useRef(key);
  useEffect(() => {
    if (!newest) return;
    const sameFilter = shownKey.current === key;
    shownKey.current = key;
    generation.current += 1;
    held.current = [];
    setHeldCount(0);
    // Live lines that came while the page was being read stay below it (the read may not hold them).
    const stored = new Set(newest.logs.map((l) => `${l.timestamp} ${l.message}`));
    const since = newest.logs[0]?.timestamp ?? '';
    const arrived = (shown: Line[]) =>
      sameFilter ? shown.filter((l) => l.id === undefined && l.timestamp >= since && !stored.has(`${l.timestamp} ${l.message}`)) : [];
    setLines((shown) => [...[...newest.logs].reverse().map(keyed), ...arrived(shown)]);
    setOlder({ busy: false, done: newest.logs.length < PAGE, error: null });
    atBottom.current = true;
  }, [newest]);

  useLiveEvents(server.id, {
    log: ({ data }) => {
      if (!matches(data)) return;
      const line = keyed(data);
      if (paused) {
        held.current.push(line);
        if (held.current.length > MAX_LINES) held.current.shift();
        setHeldCount(held.current.length);
      } else setLines((all) => capped([...all, line]));
    },
  });

  const resume = () => {
    const waiting = held.current;
    held.current = [];
    setHeldCount(0);
    setLines((all) => capped([...all, ...waiting]));
    atBottom.current = true;
    setPaused(false);
  };

  // Stored lines newest first: the ones on screen (and held) are the newest, so the next older page starts after them.
  const loadOlder = async () => {
    if (older.busy || older.done) return;
    setOlder((o) => ({ ...o, busy: true, error: null }));
    const asked = generation.current;
    try {
      const oldestId = lines.find((l) => l.id !== undefined)?.id ?? Infinity;
      const page = await client.logs.list(server.id, { limit: PAGE, offset: lines.length + held.current.length, ...filter });
      if (asked !== generation.current) return setOlder((o) => ({ ...o, busy: false }));
      const before = view.current ? view.current.scrollHeight - view.current.scrollTop : 0;
      setLines((all) => [
        ...page.logs
          .filter((l) => l.id < oldestId)
          .reverse()
          .map(keyed),
        ...all,
      ]);
      setOlder({ busy: false, done: page.logs.length < PAGE, error: null });
      // Keep the line the reader was looking at where it was.
      requestAnimationFrame(() => view.current && (view.current.scrollTop = view.current.scrollHeight - before));
    } catch (err) {
      endIfUnauthorized(err);
      if (asked === generation.current) setOlder({ busy: false, done: false, error: err });
    }
  };

  useLayoutEffect(() => {
    if (atBottom.current && view.current) view.current.scrollTop = view.current.scrollHeight;
  }, [lines]);
  const onScroll = () => {
    const el = view.current!;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
    if (el.scrollTop === 0 && !older.done) void loadOlder();
  };

  return (
    <div class="console">
      <div class="toolbar" role="group" aria-label="Log view">
        <label>
          Level
          <select value={level} onChange={(e) => setLevel(e.currentTarget.value)}>
            <option value="">All levels</option>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label class="grow">
          Search
          <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} placeholder="Text in the line" />
        </label>
        <button type="button" aria-pressed={paused} onClick={() => (paused ? resume() : setPaused(true))}>
          {paused ? `Resume${heldCount ? ` (${heldCount} new)` : ''}` : 'Pause'}
        </button>
      </div>
      <Problem error={error ?? older.error} />
      <ol class="log" ref={view} onScroll={onScroll} role="log" aria-label="Game log" tabIndex={0}>
        <li class="log-older">
          {older.done ? (
            'Start of the stored log'
          ) : (
            <button type="button" class="quiet" onClick={loadOlder} disabled={older.busy}>
              {older.busy ? 'Loading…' : 'Load older lines'}
            </button>
          )}
        </li>
        {lines.map((line) => (
          <li key={line.key} class={`log-line level-${line.level}`}>
            <time dateTime={line.timestamp}>{new Date(line.timestamp).toLocaleTimeString()}</time>
            <span class="level">{line.level}</span>
            <span class="message">{line.message}</span>
          </li>
        ))}
      </ol>
      {isAdmin() && can(game, 'remote_admin') && <RconLine server={server} />}
      {isAdmin() && can(game, 'remote_admin') && <SayBox server={server} />}
    </div>
  );
}

const capped = (lines: Line[]) => (lines.length > MAX_LINES ? lines.slice(lines.length - MAX_LINES) : lines);
