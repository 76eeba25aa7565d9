import { useState } from 'preact/hooks';
import { IDLE_STATUSES } from '@garrison/core';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { Figure } from '../../components/figures.js';
import { useQuery } from '../../cache/use-query.js';
import { JobPanel, useJobRunner } from '../../components/job.js';
import { useGame } from '../../games.js';
import { when } from '../../format.js';
import type { TabProps } from './server-page.js';

const availability = (update: boolean | null) => (update === null ? 'Not known yet' : update ? 'Yes' : 'No, up to date');

/**
 * The dedicated server as SteamCMD installed it (build, branch, when, whether Steam has newer), and its
 * install or update on one of the branches the game declares, followed to its end.
 */
export function InstallTab({ server }: TabProps) {
  const admin = isAdmin();
  const steam = useGame(server.game_type)?.steam;
  const state = useQuery(`install:${server.id}:`, () => client.steam.installState(server.id));
  const runner = useJobRunner(server.id, 'install', () => state.reload());
  const action = useAction();
  const [branch, setBranch] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const chosen = steam?.branches.find((b) => b.name === (branch ?? state.data?.branch)) ?? steam?.branches[0];
  const stopped = IDLE_STATUSES.includes(server.status);

  const install = (event: Event) => {
    event.preventDefault();
    if (!chosen) return;
    // The branch password is only sent, never kept beyond this page (the retry after a Guard code sends it again).
    const body = { branch: chosen.name, ...(chosen.password_required ? { branch_password: password } : {}) };
    void action.run(async () => {
      await runner.start(async () => (await client.steam.install(server.id, body)).job_id);
      setPassword('');
    });
  };

  const installed = state.data;
  return (
    <div class="install">
      <Problem error={state.error} />
      {installed && (
        <dl class="figures">
          <Figure label="Build" value={installed.build_id ?? 'Not installed'} />
          <Figure label="Branch" value={installed.branch ?? '–'} />
          <Figure label="Installed" value={when(installed.installed_at)} />
          <Figure label="Update available" value={availability(installed.update_available)} />
        </dl>
      )}
      <JobPanel runner={runner} label="Server install" />
      {admin && steam && (
        <form class="toolbar" onSubmit={install} aria-label="Install or update">
          <label>
            Branch
            <select value={chosen?.name} onChange={(e) => setBranch(e.currentTarget.value)}>
              {steam.branches.map((b) => (
                <option key={b.name} value={b.name} title={b.description}>
                  {b.name}
                  {b.password_required ? ' (password)' : ''}
                </option>
              ))}
            </select>
          </label>
          {chosen?.password_required && (
            <label>
              Branch password
              <input type="password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} autoComplete="off" />
            </label>
          )}
          <button type="submit" disabled={!stopped || runner.running}>
            {installed?.build_id ? 'Update' : 'Install'}
          </button>
          {!stopped && <span class="small">Stop the server to install or update it.</span>}
        </form>
      )}
      {chosen?.description && <p class="small">{chosen.description}</p>}
      <Problem error={action.error} onDismiss={action.dismiss} />
    </div>
  );
}
