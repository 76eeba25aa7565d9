import { useState } from 'preact/hooks';
import { client } from '../../session.js';
import { Problem } from '../../components/problem.js';
import { Pager } from '../../components/pager.js';
import { TableHead } from '../../components/table-head.js';
import { useDebounced } from '../../components/debounced.js';
import { useQuery } from '../../cache/use-query.js';
import type { ServerRecord } from './server-page.js';
import { playerIdLabel, useGame } from '../../games.js';

const PAGE = 25;

/** Who was on the server and when, newest first: searchable by name or by how the game knows a player, page by page. */
export function PlayerHistory({ server }: { server: ServerRecord }) {
  const idLabel = playerIdLabel(useGame(server.game_type));
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const query = useDebounced(search.trim(), 300);
  const { data, error } = useQuery(`history:${server.id}:${query}:${offset}`, () =>
    client.players.history(server.id, { limit: PAGE, offset, ...(query ? { search: query } : {}) }),
  );
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <div class="toolbar">
        <label>
          Search the history
          <input
            type="search"
            value={search}
            placeholder={`name or ${idLabel}`}
            maxLength={100}
            onInput={(e) => (setSearch(e.currentTarget.value), setOffset(0))}
          />
        </label>
      </div>
      <Problem error={error} />
      {data?.items.length === 0 && (
        <p class="empty">{query ? `No one matching “${query}” has played here.` : 'No one has played here yet.'}</p>
      )}
      {data && data.items.length > 0 && (
        <table class="table">
          <caption class="sr-only">Player history of {server.name}</caption>
          <TableHead columns={['Name', idLabel, 'Joined', 'Left']} />
          <tbody>
            {data.items.map((visit) => (
              <tr key={visit.id}>
                <td>{visit.player_name}</td>
                <td class="mono small">{visit.guid || '–'}</td>
                <td>{new Date(visit.joined_at).toLocaleString()}</td>
                <td>{visit.left_at ? new Date(visit.left_at).toLocaleString() : 'on now'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager offset={offset} limit={PAGE} total={data?.total ?? null} onChange={setOffset} />
    </section>
  );
}
