import { useEffect, useState } from 'preact/hooks';
import { STEAM_GUARD_CODE_PATTERN, STEAM_USERNAME_PATTERN } from '@garrison/core';
import { client } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { ConfirmButton } from '../components/confirm.js';
import { useQuery } from '../cache/use-query.js';
import { when } from '../format.js';
import { steamAccountOrNone } from '../components/job.js';

/**
 * The one Steam account SteamCMD logs in with (admins): its name, whether a password is set (never the
 * password), a Steam Guard code when Steam asked for one; saved or removed.
 */
export function SteamAccount() {
  const account = useQuery('steam-account:', steamAccountOrNone);
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => void (document.title = 'Steam account · Garrison'), []);
  const current = account.data;

  const save = (event: Event) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const guard = String(form.get('guard_code') ?? '');
    void action.run(async () => {
      const saved = await client.steam.setAccount({
        username: String(form.get('username')),
        password: String(form.get('password')),
        ...(guard ? { guard_code: guard } : {}),
      });
      account.apply(() => saved);
      formElement.reset();
      setNotice(guard ? 'Saved: the Guard code waits for the next login. Send the failed request again.' : 'Saved.');
    });
  };
  const remove = () =>
    action.run(async () => {
      setNotice((await client.steam.deleteAccount()).message);
      account.apply(() => null);
    });

  return (
    <section aria-labelledby="steam-title" class="narrow">
      <h1 id="steam-title">Steam account</h1>
      <p>
        SteamCMD logs in with this account to install the servers and download Workshop items. It must own the game (a dedicated account
        without a mobile authenticator saves Guard codes).
      </p>
      <Problem error={account.error} />
      {current === null && <p class="empty">No Steam account is set: only what anonymous login may fetch can be installed.</p>}
      {current && (
        <dl class="figures">
          <div>
            <dt>Username</dt>
            <dd data-testid="steam-username">{current.username}</dd>
          </div>
          <div>
            <dt>Password</dt>
            <dd>{current.password_set ? 'Set' : 'Not set'}</dd>
          </div>
          <div>
            <dt>Guard code</dt>
            <dd>{current.guard_code_pending ? 'Waiting for the next login' : '–'}</dd>
          </div>
          <div>
            <dt>Changed</dt>
            <dd>{when(current.updated_at)}</dd>
          </div>
        </dl>
      )}
      <form onSubmit={save} key={current?.username ?? ''}>
        <h2>{current ? 'Change the account' : 'Set the account'}</h2>
        <label>
          Steam username
          <input name="username" required pattern={STEAM_USERNAME_PATTERN} defaultValue={current?.username} autoComplete="off" />
        </label>
        <label>
          Steam password
          <input
            name="password"
            type="password"
            required
            autoComplete="off"
            placeholder={current?.password_set ? 'Set: type it again to save' : ''}
          />
        </label>
        <label>
          Steam Guard code (when Steam asked for one)
          <input name="guard_code" pattern={STEAM_GUARD_CODE_PATTERN} autoComplete="one-time-code" />
        </label>
        <button type="submit">Save</button>
      </form>
      {notice && (
        <p class="notice success" role="status">
          {notice}
        </p>
      )}
      <Problem error={action.error} onDismiss={action.dismiss} />
      {current && (
        <ConfirmButton
          label="Remove the account"
          title="Remove the Steam account?"
          message="SteamCMD then logs in anonymously, which cannot fetch every game's server nor its Workshop items."
          onConfirm={() => void remove()}
        />
      )}
    </section>
  );
}
