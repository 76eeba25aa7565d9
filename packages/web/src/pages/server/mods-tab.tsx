import { useEffect, useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import type { TabProps } from './server-page.js';
import { TableHead } from '../../components/table-head.js';
import { useQuery } from '../../cache/use-query.js';
import { PresetPanel } from './preset-panel.js';
import { useGame } from '../../games.js';

type Mod = ResponseOf<Endpoints['listMods']>['mods'][number];

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** `@ace` before `@CUP`: case aside, as people read names (the service lists them so too). */
const byName = (a: string, b: string) => order(a.toLowerCase(), b.toLowerCase()) || order(a, b);

/** The mod folders beside the game: which load, and which load on the server only; they apply at the next start. */
export function ModsTab({ server }: TabProps) {
  const admin = isAdmin();
  const { data, error, reload } = useQuery(`mods:${server.id}:`, () => client.mods.list(server.id));
  const [mods, setMods] = useState<Mod[]>([]);
  const [dirty, setDirty] = useState(false);
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const workshop = !!useGame(server.game_type)?.steam?.workshop_app_id;
  useEffect(() => {
    if (data) {
      setMods([...data.mods].sort((a, b) => byName(a.name, b.name)));
      setDirty(false);
    }
  }, [data]);

  const set = (name: string, change: Partial<Mod>) => {
    setMods((all) =>
      all.map((m) => (m.name === name ? { ...m, ...change, ...(change.enabled === false ? { is_server_mod: false } : {}) } : m)),
    );
    setDirty(true);
    setNotice(null);
  };
  const save = () =>
    action.run(async () => {
      const result = await client.mods.setEnabled(server.id, {
        mods: mods.filter((m) => m.enabled).map(({ name, is_server_mod }) => ({ name, is_server_mod })),
      });
      setNotice(result.message);
      setDirty(false);
    });

  return (
    <div>
      <Problem error={error} />
      {data?.mods.length === 0 && <p class="empty">No mod folders (folders starting with @) beside the server's executable.</p>}
      {mods.length > 0 && (
        <table class="table">
          <caption class="sr-only">Mods of {server.name}</caption>
          <TableHead columns={['Mod', 'Enabled', 'Server only']} />
          <tbody>
            {mods.map((m) => (
              <tr key={m.name}>
                <td>
                  {m.name}
                  {m.display_name && m.display_name !== m.name && <span class="small"> — {m.display_name}</span>}
                  <div class="mono small">
                    {m.folder_path}
                    {m.workshop_id && ` · Workshop ${m.workshop_id}`}
                  </div>
                </td>
                <td>
                  <input
                    type="checkbox"
                    checked={m.enabled}
                    disabled={!admin}
                    onChange={(e) => set(m.name, { enabled: e.currentTarget.checked })}
                    aria-label={`Enable ${m.name}`}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    checked={m.is_server_mod}
                    disabled={!admin || !m.enabled}
                    onChange={(e) => set(m.name, { is_server_mod: e.currentTarget.checked })}
                    aria-label={`Load ${m.name} on the server only`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {admin && mods.length > 0 && (
        <div class="toolbar">
          <button type="button" disabled={!dirty} onClick={save}>
            Save mods
          </button>
          {dirty && (
            <button type="button" class="quiet" onClick={reload}>
              Discard changes
            </button>
          )}
          {notice && (
            <span role="status" class="small">
              {notice}
            </span>
          )}
        </div>
      )}
      <Problem error={action.error} onDismiss={action.dismiss} />
      <PresetPanel serverId={server.id} serverName={server.name} workshop={workshop} onApplied={() => (setNotice(null), reload())} />
    </div>
  );
}
