import { useState } from 'preact/hooks';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { ConfirmButton } from '../../components/confirm.js';
import { FormDialog, fieldText } from '../../components/form-dialog.js';
import { Pager } from '../../components/pager.js';
import type { TabProps } from './server-page.js';
import { TableHead } from '../../components/table-head.js';
import { useQuery } from '../../cache/use-query.js';
import { useGame } from '../../games.js';
import { kindOf } from '../../identity-kinds.js';

const PAGE = 50;

/** The server's bans; admins add one by one of the kinds by which the game knows players (its default first), or revoke one. */
export function BansTab({ server }: TabProps) {
  const admin = isAdmin();
  const kinds = useGame(server.game_type)?.identity_kinds ?? [];
  const defaultKind = kinds[0]?.kind ?? '';
  const [activeOnly, setActiveOnly] = useState(true);
  const [offset, setOffset] = useState(0);
  const { data, error, reload } = useQuery(`bans:${server.id}:${activeOnly}:${offset}`, () =>
    client.bans.list(server.id, { active_only: activeOnly, limit: PAGE, offset }),
  );
  const [creating, setCreating] = useState(false);
  // Picked from what is typed, until the admin picks it themselves; the game's default until then.
  const [typed, setTyped] = useState<string | null>(null);
  const [banTypeChosen, setBanTypeChosen] = useState(false);
  const banType = typed ?? defaultKind;
  const action = useAction();

  return (
    <div>
      <div class="toolbar">
        <label class="check">
          <input type="checkbox" checked={!activeOnly} onChange={(e) => (setActiveOnly(!e.currentTarget.checked), setOffset(0))} /> Show
          expired and revoked bans
        </label>
        {admin && (
          <button type="button" onClick={() => setCreating(true)}>
            Add ban
          </button>
        )}
      </div>
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {data?.length === 0 && <p class="empty">No bans.</p>}
      {data && data.length > 0 && (
        <table class="table">
          <caption class="sr-only">Bans of {server.name}</caption>
          <TableHead columns={['Player', 'Type', 'Reason', 'By', 'Expires', admin && 'Actions']} />
          <tbody>
            {data.map((b) => (
              <tr key={b.id}>
                <td>
                  {b.name ?? '–'}
                  <div class="mono small">{b.guid}</div>
                </td>
                <td>{b.ban_type}</td>
                <td>{b.reason || '–'}</td>
                <td>
                  {b.source === 'file' ? (
                    <span title="Found in the game's ban file: written there by the game, another tool or by hand">
                      {b.banned_by} (file)
                    </span>
                  ) : (
                    b.banned_by
                  )}
                </td>
                <td>{b.expires_at ? new Date(b.expires_at).toLocaleString() : 'never'}</td>
                {admin && (
                  <td>
                    <ConfirmButton
                      label="Revoke"
                      class="quiet"
                      ariaLabel={`Revoke the ban of ${b.name ?? b.guid}`}
                      title="Revoke this ban?"
                      message={`${b.name ?? b.guid} can join again.`}
                      onConfirm={() => action.run(() => client.bans.revoke(server.id, b.id)).then((done) => done && reload())}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager offset={offset} limit={PAGE} total={data ? (data.length < PAGE ? offset + data.length : null) : null} onChange={setOffset} />
      {creating && (
        <FormDialog
          title="Add a ban"
          submitLabel="Ban"
          danger
          onClose={() => (setCreating(false), setTyped(null), setBanTypeChosen(false))}
          onSubmit={async (form) => {
            const minutes = fieldText(form, 'minutes');
            const reason = fieldText(form, 'reason');
            await client.bans.create(server.id, {
              player_uid: fieldText(form, 'player_uid'),
              ban_type: banType,
              ...(reason ? { reason } : {}),
              duration_minutes: minutes ? Number(minutes) : 0,
            });
            setTyped(null);
            setBanTypeChosen(false);
            reload();
          }}
        >
          <label>
            {kinds.map((k) => k.label).join(' or ')}
            <input
              name="player_uid"
              required
              maxLength={64}
              class="mono"
              placeholder={kinds.find((k) => k.kind === banType)?.example}
              onInput={(e) => banTypeChosen || setTyped(kindOf(kinds, e.currentTarget.value)?.kind ?? null)}
            />
          </label>
          <label>
            Ban by
            <select name="ban_type" value={banType} onChange={(e) => (setTyped(e.currentTarget.value), setBanTypeChosen(true))}>
              {kinds.map((k) => (
                <option key={k.kind} value={k.kind}>
                  {k.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Reason
            <input name="reason" maxLength={500} />
          </label>
          <label>
            Minutes (empty or 0 for a permanent ban)
            <input name="minutes" type="number" min={0} />
          </label>
        </FormDialog>
      )}
    </div>
  );
}
