import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client, isAdmin } from '../../session.js';
import { Problem } from '../../components/problem.js';
import { useLiveState } from '../../components/live-state.js';
import { FormDialog, fieldText } from '../../components/form-dialog.js';
import { useLiveEvents } from '../../live.js';
import type { TabProps } from './server-page.js';
import { TableHead } from '../../components/table-head.js';
import { PlayerHistory } from './player-history.js';
import { addressLabel, playerIdLabel, useGame } from '../../games.js';

type Player = ResponseOf<Endpoints['listPlayers']>['players'][number];

/** Who is on the server now, kept live (admins can kick or ban a player in a slot), and who was before. */
export function PlayersTab({ server }: TabProps) {
  const {
    state: players,
    apply,
    error,
    reload,
  } = useLiveState(`players:${server.id}:`, () => client.players.list(server.id).then((list) => list.players));
  const [acting, setActing] = useState<{ player: Player; action: 'kick' | 'ban' } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const admin = isAdmin();
  const game = useGame(server.game_type);
  useLiveEvents(server.id, {
    players: ({ data: live }) => {
      // The event goes to every role, so it carries no identity nor address: an admin's list keeps those it
      // knows of each player, and is read again for a newcomer's.
      apply((old) => live.players.map((p) => ({ ...old.find((o) => o.slot_id === p.slot_id && o.name === p.name), ...p })));
      if (admin) reload();
    },
  });

  return (
    <div>
      <Problem error={error} />
      {done && (
        <p class="notice success" role="status">
          {done}
        </p>
      )}
      {players?.length === 0 && <p class="empty">No one is on the server{server.status === 'running' ? '' : ': it is not running'}.</p>}
      {players && players.length > 0 && (
        <table class="table">
          <caption class="sr-only">Players on {server.name}</caption>
          <TableHead columns={['Slot', 'Name', 'Ping', admin && playerIdLabel(game), admin && addressLabel(game), admin && 'Actions']} />
          <tbody>
            {players.map((p) => (
              <tr key={p.slot_id}>
                <td>{p.slot_id}</td>
                <td>{p.name}</td>
                <td>{p.ping} ms</td>
                {admin && (
                  <>
                    <td>{p.guid ? <code class="player-id">{p.guid}</code> : <span class="small">not reported yet</span>}</td>
                    <td>{p.ip ? <code>{p.ip}</code> : '—'}</td>
                  </>
                )}
                {admin && (
                  <td class="row-actions">
                    <button type="button" onClick={() => setActing({ player: p, action: 'kick' })} aria-label={`Kick ${p.name}`}>
                      Kick
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => setActing({ player: p, action: 'ban' })}
                      aria-label={`Ban ${p.name}`}
                    >
                      Ban
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {acting && (
        <FormDialog
          title={`${acting.action === 'kick' ? 'Kick' : 'Ban'} ${acting.player.name}?`}
          submitLabel={acting.action === 'kick' ? 'Kick' : 'Ban'}
          danger
          onClose={() => setActing(null)}
          onSubmit={async (form) => {
            const reason = fieldText(form, 'reason');
            if (acting.action === 'kick') await client.players.kick(server.id, acting.player.slot_id, reason);
            else {
              const minutes = fieldText(form, 'minutes');
              await client.players.ban(server.id, acting.player.slot_id, { reason, duration_minutes: minutes ? Number(minutes) : null });
            }
            setDone(`${acting.player.name} was ${acting.action === 'kick' ? 'kicked' : 'banned'}.`);
          }}
        >
          <label>
            Reason
            <input name="reason" maxLength={500} />
          </label>
          {acting.action === 'ban' && (
            <label>
              Minutes (empty for a permanent ban)
              <input name="minutes" type="number" min={0} />
            </label>
          )}
        </FormDialog>
      )}
      <PlayerHistory server={server} />
    </div>
  );
}
